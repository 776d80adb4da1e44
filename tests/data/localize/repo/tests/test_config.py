import pytest

from fastzero.utils.config import FastZeroConfig, get_dtype


def test_batch_sizes(base_config):
    cfg = FastZeroConfig(base_config, world_size=1)
    assert cfg.gradient_accumulation_steps == 2


def test_infer_grad_accum():
    cfg = FastZeroConfig({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 2,
                          "zero_optimization": {"stage": 0}}, world_size=2)
    assert cfg.gradient_accumulation_steps == 2


def test_infer_micro_batch_missing():
    cfg = FastZeroConfig({"train_batch_size": 8, "zero_optimization": {"stage": 0}}, world_size=2)
    assert cfg.micro_batch_per_gpu >= 1


def test_zero_stage_defaults():
    cfg = FastZeroConfig({"train_batch_size": 2, "train_micro_batch_size_per_gpu": 2,
                          "gradient_accumulation_steps": 1}, world_size=1)
    assert cfg.zero.stage == 0


def test_batch_mismatch_world_size():
    cfg = FastZeroConfig({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2,
                          "gradient_accumulation_steps": 4, "zero_optimization": {"stage": 1}},
                         world_size=4)
    assert cfg.train_batch_size == 16


@pytest.mark.parametrize("name", ["fp32", "fp16", "bf16", "float16"])
def test_get_dtype(name):
    assert get_dtype(name) is not None


@pytest.mark.parametrize("zero_config", [{"zero_optimization": {"overlap_comm": True}}],
                         indirect=True)
def test_overlap_comm(zero_config):
    assert zero_config.zero.overlap_comm
