from .loss_scaler import DynamicLossScaler

__all__ = ["DynamicLossScaler"]
