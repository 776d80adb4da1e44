"""Training loop pieces."""
