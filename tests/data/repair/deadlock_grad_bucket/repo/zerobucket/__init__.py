"""ZeRO-style gradient buckets: grads are packed into a flat buffer and all-reduced together."""
from zerobucket.bucket import GradBucket, flush_bucket

__all__ = ["GradBucket", "flush_bucket"]
