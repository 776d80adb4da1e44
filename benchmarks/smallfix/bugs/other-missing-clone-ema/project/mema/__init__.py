from .ema import ModelEMA

__all__ = ["ModelEMA"]
