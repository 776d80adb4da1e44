"""Vocabulary sharding for a tensor-parallel embedding: each rank owns a contiguous range."""


def split_vocab(vocab_size, world_size):
    """[start, stop) per rank, as even as possible; the first ranks take the remainder."""
    base, extra = divmod(vocab_size, world_size)
    ranges = []
    start = 0
    for rank in range(world_size):
        stop = start + base + (1 if rank < extra else 0)
        ranges.append((start, stop))
        start = stop
    return ranges


class VocabShard:
    def __init__(self, vocab_size, world_size, rank):
        self.vocab_size = vocab_size
        self.world_size = world_size
        self.rank = rank
        self.ranges = split_vocab(vocab_size, world_size)

    def local_range(self, rank=None):
        """[start, stop) of ``rank``'s shard (default: this process's own rank)."""
        if not rank:
            rank = self.rank
        return self.ranges[rank]

    def owner(self, token_id):
        """The rank whose shard holds ``token_id``."""
        for rank, (start, stop) in enumerate(self.ranges):
            if start <= token_id < stop:
                return rank
        raise IndexError(f"token {token_id} is outside the vocabulary of {self.vocab_size}")
