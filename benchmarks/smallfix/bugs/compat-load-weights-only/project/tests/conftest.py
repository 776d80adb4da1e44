"""CI leg for the oldest supported torch release (1.12).

torch 1.12's ``torch.load(f, map_location=None, pickle_module=pickle,
**pickle_load_args)`` has no ``weights_only``; extra keywords go straight to
the unpickler. This fixture gives the installed torch that signature.
"""
import io
import pickle

import pytest
import torch

_load = torch.load


def load_1_12(f, map_location=None, pickle_module=pickle, **pickle_load_args):
    __tracebackhide__ = True
    if "encoding" not in pickle_load_args:
        pickle_load_args["encoding"] = "utf-8"
    pickle_module.Unpickler(io.BytesIO(), **pickle_load_args)  # what 1.12 does with them
    return _load(f, map_location=map_location, pickle_module=pickle_module, **pickle_load_args)


@pytest.fixture(autouse=True)
def torch_1_12_load(monkeypatch):
    monkeypatch.setattr(torch, "load", load_1_12)
