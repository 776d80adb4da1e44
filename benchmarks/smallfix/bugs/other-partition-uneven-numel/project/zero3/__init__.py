from .partition import ParamShard, gather_param, partition_param

__all__ = ["ParamShard", "gather_param", "partition_param"]
