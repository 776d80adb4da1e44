"""Must work with torch < 2.0 (Tensor.storage) and torch >= 2.0 (Tensor.untyped_storage)."""
import pytest
import torch

from ckptslim.clone import clone_tensors_for_torch_save, is_compact, storage_nbytes

used = []


def _untyped_storage(self):
    used.append(True)
    return self.storage()


@pytest.fixture(params=["torch-1.x", "torch-2.x"])
def surface(request, monkeypatch):
    used.clear()
    if request.param == "torch-2.x":
        monkeypatch.setattr(torch.Tensor, "untyped_storage", _untyped_storage, raising=False)
    else:
        monkeypatch.delattr(torch.Tensor, "untyped_storage", raising=False)
    return request.param


def test_storage_nbytes(surface):
    flat = torch.zeros(64, dtype=torch.float64)
    assert storage_nbytes(flat[3:5]) == 64 * 8
    assert is_compact(flat)
    assert not is_compact(flat[:8])
    if surface == "torch-2.x":
        assert used


def test_nested_state(surface):
    flat = torch.arange(1000.0)
    state = {"params": [flat[:4], torch.ones(3)], "nested": ({"m": flat[4:6]},)}
    slim = clone_tensors_for_torch_save(state)
    assert is_compact(slim["params"][0]) and torch.equal(slim["params"][0], flat[:4])
    assert is_compact(slim["nested"][0]["m"])
    assert isinstance(slim["nested"], tuple)
