from .checkpoint_io import GeneralCheckpointIO
from .wrapper import ModelWrapper

__all__ = ["GeneralCheckpointIO", "ModelWrapper"]
