import pytest
import torch

from tplayers import VocabParallelEmbedding
from tplayers.embedding import divide


def full_table(vocab, dim, seed=1234):
    return torch.randn(vocab, dim, generator=torch.Generator().manual_seed(seed))


def test_divide():
    assert divide(12, 4) == 3
    with pytest.raises(ValueError):
        divide(10, 4)


def test_shard_ranges(world):
    rank, world_size = world
    emb = VocabParallelEmbedding(16, 4)
    per = 16 // world_size
    assert (emb.vocab_start_index, emb.vocab_end_index) == (rank * per, (rank + 1) * per)
    assert torch.equal(emb.weight, full_table(16, 4)[rank * per:(rank + 1) * per])


def test_lookup_matches_full_embedding(world):
    emb = VocabParallelEmbedding(16, 4)
    tokens = torch.tensor([[0, 3, 8, 15], [12, 7, 1, 9]])
    out = emb(tokens)
    assert torch.allclose(out, full_table(16, 4)[tokens])
