import torch
from torch import nn

from fp16opt.optimizer import FP16Optimizer


def _half_model():
    torch.manual_seed(0)
    return nn.Linear(4, 2).half()


def test_overflow_skips_step():
    model = _half_model()
    before = model.weight.detach().clone()
    opt = FP16Optimizer(model.parameters(), lr=0.1)
    model.weight.grad = torch.full_like(model.weight, float("inf"))
    assert opt.step() is False
    assert opt.skipped_steps == 1
    assert torch.equal(model.weight, before)


def test_master_covers_all_params():
    model = _half_model()
    opt = FP16Optimizer(model.parameters(), lr=0.1)
    assert opt.master.numel() == sum(p.numel() for p in model.parameters())


def test_step_updates_fp16_params():
    model = _half_model()
    before = model.weight.detach().float().clone()
    opt = FP16Optimizer(model.parameters(), lr=0.5, static_loss_scale=64.0)
    for p in model.parameters():
        p.grad = torch.full_like(p, 64.0)  # scaled grads of 1.0
    assert opt.step() is True
    assert model.weight.dtype == torch.float16
    assert torch.allclose(model.weight.float(), before - 0.5, atol=1e-3)
