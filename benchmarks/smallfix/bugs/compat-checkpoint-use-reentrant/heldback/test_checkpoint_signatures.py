"""Checkpointing must work with the old (1.10) and the current checkpoint signature."""
import pytest
import torch
from torch import nn
from torch.utils import checkpoint as torch_checkpoint

from recompute.wrapper import apply_activation_checkpointing, checkpoint

_real = torch_checkpoint.checkpoint
calls = []


def _old(function, *args, **kwargs):
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    calls.append(None)
    return _real(function, *args, preserve_rng_state=preserve)


def _new(function, *args, use_reentrant=None, **kwargs):
    calls.append(use_reentrant)
    return _real(function, *args, use_reentrant=True if use_reentrant is None else use_reentrant, **kwargs)


@pytest.fixture(params=["torch-1.10", "torch-2.x"])
def surface(request, monkeypatch):
    calls.clear()
    monkeypatch.setattr(torch_checkpoint, "checkpoint", _old if request.param == "torch-1.10" else _new)
    return request.param


def test_grads_match(surface):
    torch.manual_seed(1)
    layers = [nn.Sequential(nn.Linear(3, 3), nn.GELU()) for _ in range(3)]
    x = torch.randn(2, 3, requires_grad=True)
    h = x
    for l in layers:
        h = l(h)
    h.pow(2).sum().backward()
    ref = x.grad.clone()
    x.grad = None
    h = x
    for l in apply_activation_checkpointing(layers).train():
        h = l(h)
    h.pow(2).sum().backward()
    assert torch.allclose(x.grad, ref, atol=1e-6)
    assert len(calls) == 3


def test_new_torch_uses_non_reentrant(surface):
    lin = nn.Linear(2, 2)
    checkpoint(lin, torch.ones(1, 2, requires_grad=True)).sum().backward()
    if surface == "torch-2.x":
        assert calls == [False]
    assert lin.weight.grad is not None
