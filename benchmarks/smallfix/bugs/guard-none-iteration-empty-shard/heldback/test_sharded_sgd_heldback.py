import torch

from lowzero import ShardedSGD


def test_rank_without_params_keeps_no_momentum_and_stays_in_sync(world):
    rank, world_size = world
    torch.manual_seed(0)
    w = torch.nn.Parameter(torch.ones(3))
    opt = ShardedSGD([w], lr=0.5, momentum=0.9)
    for step in range(3):
        opt.zero_grad()
        w.grad = torch.full((3,), float(rank + 1))
        opt.step()
    g = sum(range(1, world_size + 1)) / world_size
    # momentum SGD: buf1 = g, buf2 = 1.9 g, buf3 = 2.71 g
    assert torch.allclose(w, torch.ones(3) - 0.5 * g * (1 + 1.9 + 2.71))
    owner = 0
    assert (len(opt.momentum_buffers) == 1) == (rank == owner)
    assert opt.local_params == ([w] if rank == owner else [])
