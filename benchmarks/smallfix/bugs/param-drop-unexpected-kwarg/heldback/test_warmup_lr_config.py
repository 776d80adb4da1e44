import math

import pytest
import torch

from lrsched import WarmupLR, build_lr_scheduler


def _optimizer(groups=1):
    return torch.optim.SGD([{"params": [torch.nn.Parameter(torch.zeros(1))]} for _ in range(groups)], lr=1.0)


def test_warmup_lr_without_total_steps():
    cfg = {"scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 8, "warmup_max_lr": 0.4}}}
    opt = _optimizer(groups=2)
    sched = build_lr_scheduler(opt, cfg)
    assert type(sched) is WarmupLR
    assert opt.param_groups[0]["lr"] == 0.0
    for _ in range(4):
        sched.step()
    expected = 0.4 * math.log(4) / math.log(8)
    assert [g["lr"] for g in opt.param_groups] == pytest.approx([expected, expected])


def test_warmup_lr_never_decays_even_with_total_steps():
    cfg = {"scheduler": {"type": "WarmupLR",
                         "params": {"warmup_num_steps": 2, "warmup_max_lr": 0.3,
                                    "warmup_type": "linear", "total_num_steps": 5}}}
    opt = _optimizer()
    sched = build_lr_scheduler(opt, cfg)
    for _ in range(12):
        sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(0.3)


def test_warmup_lr_resume_from_iteration():
    cfg = {"scheduler": {"type": "WarmupLR",
                         "params": {"warmup_num_steps": 10, "warmup_type": "linear",
                                    "warmup_max_lr": 1.0, "last_batch_iteration": 4}}}
    opt = _optimizer()
    sched = build_lr_scheduler(opt, cfg)
    sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(0.5)
