from .schedule import forward_backward_steps, peak_activations

__all__ = ["forward_backward_steps", "peak_activations"]
