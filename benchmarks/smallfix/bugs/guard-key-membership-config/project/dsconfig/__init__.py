from .config import ConfigError, TrainingConfig

__all__ = ["ConfigError", "TrainingConfig"]
