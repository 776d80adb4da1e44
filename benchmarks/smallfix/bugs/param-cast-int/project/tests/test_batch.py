import pytest
import torch
from torch import nn

from batchcfg.config import BatchConfig, ConfigError
from batchcfg.engine import Engine


def test_derive_train_batch():
    cfg = BatchConfig({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 3}, dp_world_size=2)
    assert cfg.train_batch_size == 12


def test_inconsistent_triple():
    with pytest.raises(ConfigError):
        BatchConfig({"train_batch_size": 10, "train_micro_batch_size_per_gpu": 2,
                     "gradient_accumulation_steps": 3})


def _data(micro):
    torch.manual_seed(0)
    while True:
        yield torch.randn(micro, 3), torch.randn(micro, 1)


def test_train_batch_with_explicit_gas():
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    engine = Engine(model, opt, {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 2})
    engine.train_batch(_data(2), nn.functional.mse_loss)
    assert engine.micro_steps == 2


def test_train_batch_derived_gas():
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    engine = Engine(model, opt, {"train_batch_size": 16, "train_micro_batch_size_per_gpu": 4})
    engine.train_batch(_data(4), nn.functional.mse_loss)
    assert engine.micro_steps == 4
    assert engine.global_steps == 1
