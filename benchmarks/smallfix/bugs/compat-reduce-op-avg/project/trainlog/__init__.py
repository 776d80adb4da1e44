"""Training-loop reporting: losses and timers reduced across data-parallel ranks."""
