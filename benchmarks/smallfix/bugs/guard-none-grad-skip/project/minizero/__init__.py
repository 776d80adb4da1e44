from .reduce import GradientReducer

__all__ = ["GradientReducer"]
