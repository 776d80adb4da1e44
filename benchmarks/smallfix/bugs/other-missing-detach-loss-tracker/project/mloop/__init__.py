from .loss_tracker import LossTracker, train_step

__all__ = ["LossTracker", "train_step"]
