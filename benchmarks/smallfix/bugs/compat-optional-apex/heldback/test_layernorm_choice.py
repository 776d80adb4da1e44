"""apex is optional: use its fused LayerNorm when installed, torch's otherwise."""
import importlib
import sys
import types

import pytest
import torch
from torch import nn

from gptlite.config import GPTConfig


class FakeFusedLayerNorm(nn.LayerNorm):
    pass


def _reload_model():
    sys.modules.pop("gptlite.model", None)
    return importlib.import_module("gptlite.model")


@pytest.fixture
def with_apex(monkeypatch):
    apex = types.ModuleType("apex")
    normalization = types.ModuleType("apex.normalization")
    normalization.FusedLayerNorm = FakeFusedLayerNorm
    apex.normalization = normalization
    monkeypatch.setitem(sys.modules, "apex", apex)
    monkeypatch.setitem(sys.modules, "apex.normalization", normalization)
    yield
    sys.modules.pop("gptlite.model", None)


def test_uses_fused_layernorm_when_apex_present(with_apex):
    mod = _reload_model()
    model = mod.GPT(GPTConfig(num_layers=1))
    assert type(model.ln_f) is FakeFusedLayerNorm
    assert model(torch.randint(0, 64, (1, 4))).shape == (1, 4, 64)


def test_torch_layernorm_without_apex(monkeypatch):
    monkeypatch.setitem(sys.modules, "apex", None)
    monkeypatch.delitem(sys.modules, "apex.normalization", raising=False)
    mod = _reload_model()
    model = mod.GPT(GPTConfig(num_layers=1, layernorm_epsilon=1e-6))
    assert type(model.blocks[0].ln_1) is nn.LayerNorm
    assert model.blocks[0].ln_1.eps == 1e-6
    sys.modules.pop("gptlite.model", None)
