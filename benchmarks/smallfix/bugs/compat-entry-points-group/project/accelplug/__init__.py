"""Accelerator abstraction with third-party accelerators registered as entry points."""
