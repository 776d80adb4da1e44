import torch

from fastzero.runtime.lr_schedules import WarmupCosineLR


def test_warmup():
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    sched = WarmupCosineLR(opt, warmup_steps=4, total_steps=10)
    sched.step()
    assert 0 < opt.param_groups[0]["lr"] < 1.0
