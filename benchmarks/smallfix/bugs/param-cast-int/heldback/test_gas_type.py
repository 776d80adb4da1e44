import json

from batchcfg.config import BatchConfig


def test_derived_gas_is_int():
    cfg = BatchConfig({"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4}, dp_world_size=2)
    assert cfg.gradient_accumulation_steps == 4
    assert isinstance(cfg.gradient_accumulation_steps, int)
    assert json.dumps(cfg.to_dict()) == json.dumps(
        {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4})


def test_other_derivations_unchanged():
    cfg = BatchConfig({"train_batch_size": 24, "gradient_accumulation_steps": 3}, dp_world_size=2)
    assert cfg.micro_batch == 4 and isinstance(cfg.micro_batch, int)
    cfg = BatchConfig({"train_batch_size": 8}, dp_world_size=4)
    assert (cfg.micro_batch, cfg.gradient_accumulation_steps) == (2, 1)
