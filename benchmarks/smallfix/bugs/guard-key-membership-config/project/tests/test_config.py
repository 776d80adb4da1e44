import json

import pytest

from dsconfig import ConfigError, TrainingConfig


def test_full_config_from_file(tmp_path):
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps({
        "train_batch_size": 32, "gradient_accumulation_steps": 2,
        "fp16": {"enabled": True}, "zero_optimization": {"stage": 2, "overlap_comm": True},
        "gradient_clipping": 1.0}))
    cfg = TrainingConfig(str(path), world_size=4)
    assert cfg.micro_batch_size == 4
    assert cfg.fp16_enabled and cfg.initial_loss_scale == 65536
    assert cfg.zero_stage == 2 and cfg.overlap_comm
    assert cfg.reduce_bucket_size == 500_000_000


def test_inconsistent_batch():
    with pytest.raises(ConfigError, match="train_batch_size 30"):
        TrainingConfig({"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4,
                        "gradient_accumulation_steps": 2, "zero_optimization": {}}, world_size=4)


def test_bad_zero_stage():
    with pytest.raises(ConfigError, match="stage must be 0-3"):
        TrainingConfig({"train_batch_size": 8, "zero_optimization": {"stage": 4}})


def test_minimal_config_uses_defaults():
    cfg = TrainingConfig({"train_micro_batch_size_per_gpu": 2}, world_size=2)
    assert cfg.train_batch_size == 4 and cfg.gradient_accumulation_steps == 1
    assert cfg.zero_stage == 0
    assert not cfg.fp16_enabled
