"""zerolinear.linear must import and work on torch < 2.4 (torch.cuda.amp.custom_fwd)
and torch >= 2.4 (torch.amp.custom_fwd(device_type=...))."""
import functools
import importlib
import sys

import pytest
import torch
from torch import nn

calls = []


def _new_custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    if fwd is None:
        return functools.partial(_new_custom_fwd, device_type=device_type, cast_inputs=cast_inputs)
    calls.append(("fwd", device_type))
    return torch.cuda.amp.custom_fwd(fwd, cast_inputs=cast_inputs)


def _new_custom_bwd(bwd=None, *, device_type):
    if bwd is None:
        return functools.partial(_new_custom_bwd, device_type=device_type)
    calls.append(("bwd", device_type))
    return torch.cuda.amp.custom_bwd(bwd)


@pytest.fixture(params=["torch-2.3", "torch-2.4"])
def linear_mod(request, monkeypatch):
    calls.clear()
    if request.param == "torch-2.4":
        monkeypatch.setattr(torch.amp, "custom_fwd", _new_custom_fwd, raising=False)
        monkeypatch.setattr(torch.amp, "custom_bwd", _new_custom_bwd, raising=False)
    else:
        monkeypatch.delattr(torch.amp, "custom_fwd", raising=False)
        monkeypatch.delattr(torch.amp, "custom_bwd", raising=False)
    monkeypatch.delitem(sys.modules, "zerolinear.linear", raising=False)
    mod = importlib.import_module("zerolinear.linear")
    yield request.param, mod
    sys.modules.pop("zerolinear.linear", None)


def test_gradients(linear_mod):
    surface, mod = linear_mod
    torch.manual_seed(3)
    ref = nn.Linear(3, 2, bias=False)
    layer = mod.LinearModuleForZeroStage3(3, 2, bias=False)
    layer.load_state_dict(ref.state_dict())
    x = torch.randn(4, 3, requires_grad=True)
    ref(x).sum().backward()
    ref_grad = x.grad.clone()
    x.grad = None
    layer(x).sum().backward()
    assert torch.allclose(x.grad, ref_grad, atol=1e-5)
    assert torch.allclose(layer.weight.grad, ref.weight.grad, atol=1e-5)
    if surface == "torch-2.4":
        assert ("fwd", "cuda") in calls and ("bwd", "cuda") in calls
