import pytest
import torch

from lrsched import WarmupDecayLR, WarmupLR, build_lr_scheduler


def _optimizer():
    return torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=1.0)


def test_no_scheduler_section():
    assert build_lr_scheduler(_optimizer(), {}) is None


def test_warmup_decay_from_config():
    cfg = {"scheduler": {"type": "WarmupDecayLR",
                         "params": {"warmup_num_steps": 10, "warmup_max_lr": 0.1,
                                    "warmup_type": "linear", "total_num_steps": 20}}}
    sched = build_lr_scheduler(_optimizer(), cfg)
    assert isinstance(sched, WarmupDecayLR)
    for _ in range(15):
        sched.step()
    assert sched.get_last_lr()[0] == pytest.approx(0.06)


def test_warmup_lr_from_config():
    cfg = {"scheduler": {"type": "WarmupLR",
                         "params": {"warmup_num_steps": 4, "warmup_max_lr": 0.02,
                                    "warmup_type": "linear"}}}
    opt = _optimizer()
    sched = build_lr_scheduler(opt, cfg, total_num_steps=100)
    assert isinstance(sched, WarmupLR)
    lrs = []
    for _ in range(6):
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == pytest.approx([0.0, 0.005, 0.01, 0.015, 0.02, 0.02])


def test_unknown_type():
    with pytest.raises(ValueError):
        build_lr_scheduler(_optimizer(), {"scheduler": {"type": "OneCycle"}})
