import torch
from torch import nn

from gradnorm.overflow import DynamicLossScaler, check_overflow


def test_check_overflow():
    p = nn.Parameter(torch.zeros(3))
    p.grad = torch.tensor([1.0, float("nan"), 0.0])
    assert check_overflow([p])
    p.grad = torch.ones(3)
    assert not check_overflow([p])


def test_loss_scaler_backoff_and_growth():
    scaler = DynamicLossScaler(init_scale=8.0, scale_window=2)
    scaler.update_scale(True)
    assert scaler.cur_scale == 4.0
    scaler.update_scale(False)
    scaler.update_scale(False)
    assert scaler.cur_scale == 8.0
