"""Save and load training checkpoints (model, optimizer, scheduler and client state)."""
