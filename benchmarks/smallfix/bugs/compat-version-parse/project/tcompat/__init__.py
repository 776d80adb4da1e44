"""Helpers that pick the best implementation for the installed torch release."""
