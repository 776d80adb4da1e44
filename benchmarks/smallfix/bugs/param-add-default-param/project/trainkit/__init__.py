"""A minimal training engine: config parsing, gradient clipping, optimizer step."""
