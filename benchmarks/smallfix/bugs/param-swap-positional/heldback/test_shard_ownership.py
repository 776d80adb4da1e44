import torch
from torch import nn

from zeroshard.optimizer import ShardedSGD
from zeroshard.partition import get_shard_range


def test_each_rank_owns_its_own_shard(dist_init):
    rank, world_size = dist_init
    params = [nn.Parameter(torch.arange(7.0))]
    opt = ShardedSGD(params)
    assert (opt.start, opt.end) == get_shard_range(7, rank, world_size)
    assert torch.equal(opt.master, torch.arange(7.0)[opt.start:opt.end])


def test_momentum_matches_torch(dist_init):
    rank, world_size = dist_init
    torch.manual_seed(2)
    a = nn.Linear(4, 3)
    b = nn.Linear(4, 3)
    b.load_state_dict(a.state_dict())
    opt = ShardedSGD(a.parameters(), lr=0.05, momentum=0.9)
    ref_opt = torch.optim.SGD(b.parameters(), lr=0.05, momentum=0.9)
    for step in range(4):
        x = torch.randn(2 * world_size, 4)
        a(x.chunk(world_size)[rank]).pow(2).sum().backward()
        opt.step()
        opt.zero_grad()
        (b(x).pow(2).sum() / world_size).backward()
        ref_opt.step()
        ref_opt.zero_grad()
    assert torch.allclose(a.weight, b.weight, atol=1e-5)
    assert torch.allclose(a.bias, b.bias, atol=1e-5)
