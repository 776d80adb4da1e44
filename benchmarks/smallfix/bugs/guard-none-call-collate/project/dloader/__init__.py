from .loader import MicroBatchLoader

__all__ = ["MicroBatchLoader"]
