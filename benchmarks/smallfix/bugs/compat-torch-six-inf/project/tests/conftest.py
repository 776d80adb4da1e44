"""The nightly CI job runs against the current torch release (2.x).

``torch._six`` was removed in torch 2.0; the installed torch still ships it,
so the job hides it the way a torch 2.x install behaves.
"""
import importlib.abc
import sys

import torch


class _Torch2ImportBlocker(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        __tracebackhide__ = True
        if fullname == "torch._six":
            raise ModuleNotFoundError("No module named 'torch._six'", name=fullname)
        return None


sys.modules.pop("torch._six", None)
if hasattr(torch, "_six"):
    delattr(torch, "_six")
sys.meta_path.insert(0, _Torch2ImportBlocker())
