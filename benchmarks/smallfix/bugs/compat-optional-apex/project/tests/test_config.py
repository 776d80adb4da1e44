import pytest

from gptlite.config import GPTConfig


def test_defaults():
    cfg = GPTConfig()
    assert cfg.hidden_size % cfg.num_heads == 0


def test_bad_heads():
    with pytest.raises(ValueError):
        GPTConfig(hidden_size=10, num_heads=3)
