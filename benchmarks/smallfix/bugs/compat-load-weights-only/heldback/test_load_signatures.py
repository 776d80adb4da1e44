"""Loading must work with torch 1.12's load signature and with torch >= 2.6 (weights_only=True default)."""
import io
import pickle

import pytest
import torch
from torch import nn

from ckptio.checkpoint import TrainingArgs, load_checkpoint, save_checkpoint

_load = torch.load


def load_1_12(f, map_location=None, pickle_module=pickle, **pickle_load_args):
    if "encoding" not in pickle_load_args:
        pickle_load_args["encoding"] = "utf-8"
    pickle_module.Unpickler(io.BytesIO(), **pickle_load_args)
    return _load(f, map_location=map_location, pickle_module=pickle_module, **pickle_load_args)


def load_2_6(f, map_location=None, pickle_module=None, *, weights_only=True, **kwargs):
    return _load(f, map_location=map_location, weights_only=weights_only, **kwargs)


@pytest.mark.parametrize("loader", [load_1_12, load_2_6, _load], ids=["torch-1.12", "torch-2.6", "installed"])
def test_roundtrip_all_releases(tmp_path, monkeypatch, loader):
    monkeypatch.setattr(torch, "load", loader)
    torch.manual_seed(0)
    model = nn.Linear(2, 2)
    opt = torch.optim.Adam(model.parameters())
    save_checkpoint(str(tmp_path), "step5", model, opt, TrainingArgs(micro_batch=4))
    other = nn.Linear(2, 2)
    tag, args, client_state = load_checkpoint(str(tmp_path), other, tag="step5")
    assert tag == "step5" and args.micro_batch == 4 and client_state == {}
    assert torch.equal(other.bias, model.bias)
