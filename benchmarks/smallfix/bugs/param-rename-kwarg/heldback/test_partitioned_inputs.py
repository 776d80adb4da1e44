import torch
import torch.distributed as dist
from torch import nn

from actckpt import checkpoint
from actckpt.checkpoint import restore_inputs, save_inputs


def test_saved_inputs_are_partitioned(dist_init):
    rank, world_size = dist_init
    x = torch.arange(7.0).view(7, 1)
    saved = save_inputs((x, 3), dist.group.WORLD)
    part, shape, _ = saved[0]
    if world_size > 1:
        assert part.numel() == (7 + world_size - 1) // world_size
        assert shape == x.shape
    assert saved[1][0] == 3
    restored = restore_inputs(saved, dist.group.WORLD)
    assert torch.equal(restored[0], x)
    assert restored[1] == 3


def test_checkpoint_odd_shape_and_non_tensor_arg(dist_init):
    torch.manual_seed(1)
    lin = nn.Linear(5, 5)

    def block(h, scale):
        return torch.tanh(lin(h)) * scale

    x = torch.randn(3, 5, requires_grad=True)
    block(x, 2.0).pow(2).sum().backward()
    ref = x.grad.clone()
    x.grad = None
    checkpoint(block, x, 2.0).pow(2).sum().backward()
    assert torch.allclose(x.grad, ref, atol=1e-6)
