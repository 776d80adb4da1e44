import torch
from torch import nn

from tcompat.optim import adamw_impl_kwargs, build_adamw
from tcompat.version import torch_version_at_least


def test_release_versions(monkeypatch):
    monkeypatch.setattr(torch, "__version__", "1.13.1")
    assert torch_version_at_least("1.12")
    assert not torch_version_at_least("2.0")


def test_ngc_container_version(monkeypatch):
    # NVIDIA's PyTorch containers report pre-release versions with a git hash
    monkeypatch.setattr(torch, "__version__", "2.1.0a0+32f93b1")
    assert adamw_impl_kwargs(params_on_cuda=True) == {"fused": True}


def test_build_adamw_cpu():
    opt = build_adamw(nn.Linear(2, 2).parameters(), lr=0.01)
    assert opt.param_groups[0]["lr"] == 0.01
