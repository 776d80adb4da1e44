import pytest

from tpvocab.shard import VocabShard, split_vocab


@pytest.fixture
def shard():
    # This process is rank 2 of 4; 14 tokens split as 4, 4, 3, 3.
    return VocabShard(vocab_size=14, world_size=4, rank=2)


def test_split_covers_the_vocab(shard):
    assert split_vocab(14, 4) == [(0, 4), (4, 8), (8, 11), (11, 14)]
    assert shard.ranges[-1][1] == 14


def test_own_range_by_default(shard):
    assert shard.local_range() == (8, 11)


def test_range_of_another_rank(shard):
    assert shard.local_range(3) == (11, 14)


def test_range_of_rank_zero(shard):
    assert shard.local_range(0) == (0, 4)


def test_owner(shard):
    assert [shard.owner(t) for t in (0, 4, 8, 13)] == [0, 1, 2, 3]
