import torch

from fp16util import DynamicLossScaler


def test_scale_window_growth():
    s = DynamicLossScaler(init_scale=4.0, scale_window=2)
    for overflow in (False, False, True, False):
        s.update_scale(overflow)
    assert s.cur_scale == 4.0
    assert s.good_steps == 1


def test_min_scale():
    s = DynamicLossScaler(init_scale=2.0, min_scale=1.0)
    s.update_scale(True)
    s.update_scale(True)
    assert s.cur_scale == 1.0


def test_no_overflow_anywhere_steps(world):
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.full((2,), 8.0)
    s = DynamicLossScaler(init_scale=8.0)
    opt = torch.optim.SGD([p], lr=1.0)
    assert s.unscale_and_step(opt, [p]) is True
    assert torch.equal(p.detach(), torch.zeros(2))


def test_overflow_on_one_rank_skips_everywhere(world):
    rank, world_size = world
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.tensor([1.0, float("inf")]) if rank == world_size - 1 else torch.ones(2)
    s = DynamicLossScaler(init_scale=1024.0)
    opt = torch.optim.SGD([p], lr=1.0)
    stepped = s.unscale_and_step(opt, [p])
    assert stepped is False
    assert s.cur_scale == 512.0
    assert torch.equal(p.detach(), torch.ones(2))
