"""The CI matrix includes the oldest torch release we support (1.10).

torch 1.10's ``checkpoint(function, *args, **kwargs)`` only understands
``preserve_rng_state``; this fixture gives the installed torch that signature.
"""
import pytest
from torch.utils import checkpoint as torch_checkpoint

_checkpoint = torch_checkpoint.checkpoint


def checkpoint_1_10(function, *args, **kwargs):
    __tracebackhide__ = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    return _checkpoint(function, *args, preserve_rng_state=preserve)


@pytest.fixture(autouse=True)
def torch_1_10_checkpoint(monkeypatch):
    monkeypatch.setattr(torch_checkpoint, "checkpoint", checkpoint_1_10)
