import torch
from torch import nn

from actckpt import checkpoint
from actckpt.partition import get_partition_size, partition_activation


def test_partition_size_rounds_up():
    assert get_partition_size(10, 4) == 3
    assert get_partition_size(8, 4) == 2


def test_partition_activation_slices():
    x = torch.arange(5.0)
    assert partition_activation(x, 2, 0).tolist() == [0.0, 1.0, 2.0]
    assert partition_activation(x, 2, 1).tolist() == [3.0, 4.0, 0.0]


def test_checkpoint_matches_plain_backward(dist_init):
    torch.manual_seed(0)
    block = nn.Sequential(nn.Linear(6, 6), nn.GELU(), nn.Linear(6, 6))
    x = torch.randn(3, 6, requires_grad=True)
    block(x).sum().backward()
    ref_x, ref_w = x.grad.clone(), block[0].weight.grad.clone()
    x.grad = None
    block.zero_grad()

    out = checkpoint(block, x)
    out.sum().backward()
    assert torch.allclose(x.grad, ref_x, atol=1e-6)
    assert torch.allclose(block[0].weight.grad, ref_w, atol=1e-6)
