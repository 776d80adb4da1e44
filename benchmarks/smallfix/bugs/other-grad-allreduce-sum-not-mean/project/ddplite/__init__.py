from .grad_sync import allreduce_gradients, broadcast_params

__all__ = ["allreduce_gradients", "broadcast_params"]
