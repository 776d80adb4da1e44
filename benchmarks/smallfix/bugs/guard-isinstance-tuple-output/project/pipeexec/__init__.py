from .stage import StageExecutor

__all__ = ["StageExecutor"]
