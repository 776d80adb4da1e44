import torch
from torch import nn

from fp16opt.flat import create_flat_master
from fp16opt.optimizer import FP16Optimizer


def test_master_is_fp32_by_default():
    params = [torch.zeros(3, dtype=torch.float16), torch.ones(2, dtype=torch.float16)]
    master = create_flat_master(params)
    assert master.dtype == torch.float32
    assert master.tolist() == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert create_flat_master(params, dtype=torch.float64).dtype == torch.float64


def test_small_updates_accumulate_in_master():
    model = nn.Linear(1, 1, bias=False).half()
    model.weight.data.fill_(1.0)
    opt = FP16Optimizer(model.parameters(), lr=1e-4, static_loss_scale=1.0)
    for _ in range(10):
        model.weight.grad = torch.ones_like(model.weight)
        opt.step()
    # each 1e-4 step is below fp16 resolution at 1.0, the fp32 master keeps them
    assert abs(opt.master.item() - (1.0 - 1e-3)) < 1e-6
    assert abs(model.weight.float().item() - 0.999) < 1e-3
