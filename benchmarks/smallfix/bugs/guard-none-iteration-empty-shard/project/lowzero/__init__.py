from .sharded_sgd import ShardedSGD, partition_params

__all__ = ["ShardedSGD", "partition_params"]
