import pytest
import torch

from tcompat.optim import adamw_impl_kwargs
from tcompat.version import torch_version_at_least


@pytest.mark.parametrize("installed, minimum, expected", [
    ("2.1.0+cu118", "2.0", True),
    ("2.2.0a0+git8ac9b20", "2.2", True),
    ("1.13.0a0", "1.12", True),
    ("1.9.1+cpu", "1.12", False),
    ("1.12.1", "1.12", True),
    ("2.0.0rc1", "2.1", False),
    ("1.10.0", "1.9", True),
])
def test_version_strings(monkeypatch, installed, minimum, expected):
    monkeypatch.setattr(torch, "__version__", installed)
    assert torch_version_at_least(minimum) is expected


def test_old_release_has_no_impl_kwargs(monkeypatch):
    monkeypatch.setattr(torch, "__version__", "1.11.0+cu113")
    assert adamw_impl_kwargs(params_on_cuda=True) == {}
