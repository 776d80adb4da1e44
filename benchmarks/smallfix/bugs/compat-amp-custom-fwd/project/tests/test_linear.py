import torch
from torch import nn

from zerolinear.linear import LinearModuleForZeroStage3


def test_matches_nn_linear():
    torch.manual_seed(0)
    ref = nn.Linear(4, 3)
    layer = LinearModuleForZeroStage3(4, 3)
    layer.load_state_dict(ref.state_dict())
    x = torch.randn(2, 5, 4, requires_grad=True)
    ref(x).pow(2).sum().backward()
    ref_x = x.grad.clone()
    x.grad = None
    layer(x).pow(2).sum().backward()
    assert torch.allclose(x.grad, ref_x, atol=1e-5)
    assert torch.allclose(layer.weight.grad, ref.weight.grad, atol=1e-5)
    assert torch.allclose(layer.bias.grad, ref.bias.grad, atol=1e-5)
