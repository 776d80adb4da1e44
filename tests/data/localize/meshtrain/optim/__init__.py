from meshtrain.optim.sharded import GradBuckets, ShardedAdam

__all__ = ["GradBuckets", "ShardedAdam"]
