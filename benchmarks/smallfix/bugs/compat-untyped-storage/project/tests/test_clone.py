import io

import torch

from ckptslim.clone import clone_tensors_for_torch_save


def _saved_size(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.tell()


def test_non_tensor_items_pass_through():
    state = {"step": 3, "name": "adam", "betas": (0.9, 0.999)}
    assert clone_tensors_for_torch_save(state) == state


def test_views_are_compacted():
    flat = torch.zeros(100_000)
    state = {"weight": flat[:10].view(2, 5), "bias": flat[10:12], "step": 7}
    slim = clone_tensors_for_torch_save(state)
    assert torch.equal(slim["weight"], state["weight"])
    assert slim["step"] == 7
    assert _saved_size(slim) < _saved_size(state) / 100
