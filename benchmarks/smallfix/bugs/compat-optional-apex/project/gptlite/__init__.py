"""A small GPT model for tests and examples."""
