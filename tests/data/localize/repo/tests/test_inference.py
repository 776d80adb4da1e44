import pytest
import torch

from fastzero.inference.engine import InferenceEngine


@pytest.fixture
def engine(tiny_model):
    return InferenceEngine(tiny_model, heads=2)


def test_generate_greedy(engine):
    engine.register_post_hook(lambda logits: logits)
    out = engine.generate(torch.randint(0, 32, (1, 4)), max_new_tokens=3)
    assert out.shape == (1, 7)


def test_generate_use_cache(engine):
    out = engine.generate(torch.randint(0, 32, (1, 4)), max_new_tokens=2, use_cache=True)
    assert out.shape == (1, 6)


def test_generate_without_hooks(engine):
    out = engine.generate(torch.randint(0, 32, (1, 4)), max_new_tokens=2)
    assert out.shape == (1, 6)


def test_kv_cache(tiny_model):
    eng = InferenceEngine(tiny_model, heads=2, kv_cache=True)
    out = eng.generate(torch.randint(0, 32, (1, 4)), max_new_tokens=2, apply_hooks=False)
    assert out.shape == (1, 6)


def test_flash_attention(tiny_model):
    eng = InferenceEngine(tiny_model, heads=2, use_flash=True)
    out = eng.generate(torch.randint(0, 32, (1, 4)), max_new_tokens=2, apply_hooks=False)
    assert out.shape == (1, 6)
