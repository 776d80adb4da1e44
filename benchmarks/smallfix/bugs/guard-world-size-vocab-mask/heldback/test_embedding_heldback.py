import torch

from tplayers import VocabParallelEmbedding


def test_gradients_only_on_owned_rows(world):
    rank, world_size = world
    emb = VocabParallelEmbedding(8, 3, seed=7)
    tokens = torch.arange(8).view(2, 4)
    emb(tokens).sum().backward()
    assert torch.allclose(emb.weight.grad, torch.ones_like(emb.weight))
    tokens = torch.tensor([[0, 0, 1]])
    emb.weight.grad = None
    out = emb(tokens)
    out.sum().backward()
    table = torch.randn(8, 3, generator=torch.Generator().manual_seed(7))
    assert torch.allclose(out, table[tokens])
    expected = torch.zeros(8, 3)
    expected[0] = 2.0
    expected[1] = 1.0
    per = 8 // world_size
    assert torch.allclose(emb.weight.grad, expected[rank * per:(rank + 1) * per])


def test_only_tokens_of_last_shard(world):
    emb = VocabParallelEmbedding(8, 2, seed=3)
    tokens = torch.tensor([7, 6, 7])
    table = torch.randn(8, 2, generator=torch.Generator().manual_seed(3))
    assert torch.allclose(emb(tokens), table[tokens])
