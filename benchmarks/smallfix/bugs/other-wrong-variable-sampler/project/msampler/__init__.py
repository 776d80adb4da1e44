from .sampler import PretrainingSampler

__all__ = ["PretrainingSampler"]
