"""Which slice of a flat buffer a data-parallel rank owns."""


def padded_shard_numel(numel, world_size):
    return (numel + world_size - 1) // world_size


def get_shard_range(numel, rank, world_size):
    """Return ``(start, end)`` of ``rank``'s shard; trailing shards may be short or empty."""
    shard = padded_shard_numel(numel, world_size)
    start = min(rank * shard, numel)
    end = min(start + shard, numel)
    return start, end
