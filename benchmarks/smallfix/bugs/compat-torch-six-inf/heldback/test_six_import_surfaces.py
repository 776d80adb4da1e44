"""gradnorm.clip_grads must import on torch < 2.0 (with torch._six) and torch >= 2.0 (without)."""
import importlib
import importlib.abc
import math
import sys

import pytest
import torch
from torch import nn


class _Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname == "torch._six":
            raise ModuleNotFoundError("No module named 'torch._six'", name=fullname)
        return None


@pytest.fixture(params=["torch-1.x", "torch-2.x"])
def clip_grads(request, monkeypatch):
    if request.param == "torch-2.x":
        monkeypatch.delitem(sys.modules, "torch._six", raising=False)
        monkeypatch.delattr(torch, "_six", raising=False)
        monkeypatch.setattr(sys, "meta_path", [_Blocker()] + sys.meta_path)
    monkeypatch.delitem(sys.modules, "gradnorm.clip_grads", raising=False)
    return importlib.import_module("gradnorm.clip_grads")


def test_inf_norm_both_releases(clip_grads):
    a, b = nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(1))
    a.grad, b.grad = torch.tensor([0.5, -3.0]), torch.tensor([2.0])
    assert clip_grads.get_grad_norm([a, b], norm_type=float("inf")) == 3.0
    total = clip_grads.clip_grad_norm_([a, b], max_norm=1.5, norm_type="inf")
    assert total == 3.0
    assert math.isclose(a.grad[1].item(), -1.5, rel_tol=1e-4)


def test_l1_norm_both_releases(clip_grads):
    a = nn.Parameter(torch.zeros(3))
    a.grad = torch.tensor([1.0, -2.0, 3.0])
    assert math.isclose(clip_grads.get_grad_norm([a], norm_type=1), 6.0, rel_tol=1e-6)
