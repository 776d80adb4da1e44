import torch
from torch import nn

from zeroshard.optimizer import ShardedSGD
from zeroshard.partition import get_shard_range


def test_shard_ranges_cover_buffer():
    ranges = [get_shard_range(10, r, 4) for r in range(4)]
    assert ranges == [(0, 3), (3, 6), (6, 9), (9, 10)]


def test_shard_ranges_more_ranks_than_elements():
    assert get_shard_range(2, 3, 4) == (2, 2)


def test_matches_plain_sgd(dist_init):
    rank, world_size = dist_init
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    ref = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    ref.load_state_dict(model.state_dict())
    opt = ShardedSGD(model.parameters(), lr=0.1)
    ref_opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    x = torch.randn(4 * world_size, 3)
    for _ in range(3):
        model(x.chunk(world_size)[rank]).sum().backward()
        opt.step()
        opt.zero_grad()
        (ref(x).sum() / world_size).backward()
        ref_opt.step()
        ref_opt.zero_grad()
    for p, q in zip(model.parameters(), ref.parameters()):
        assert torch.allclose(p, q, atol=1e-5)
