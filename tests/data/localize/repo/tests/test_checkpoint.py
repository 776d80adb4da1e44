import torch

from fastzero.checkpoint.saver import consolidate_zero, load_checkpoint, save_checkpoint
from fastzero.runtime.engine import FastZeroEngine


def _engine(model, cfg):
    return FastZeroEngine(model, cfg)


def test_save_single_process(tmp_path, tiny_model, base_config):
    engine = _engine(tiny_model, base_config)
    save_checkpoint(engine, str(tmp_path), "step1", client_state={})


def test_save_and_load(tmp_path, single_process_group, tiny_model, base_config):
    engine = _engine(tiny_model, base_config)
    save_checkpoint(engine, str(tmp_path), "step1", client_state={"epoch": 3})
    state = load_checkpoint(engine, str(tmp_path), "step1")
    assert state["epoch"] == 3


def test_load_missing_tag(tmp_path, tiny_model, base_config):
    engine = _engine(tiny_model, base_config)
    load_checkpoint(engine, str(tmp_path), "latest")


def test_consolidate(tiny_model, base_config):
    engine = _engine(tiny_model, base_config)
    full = consolidate_zero(engine, world_size=2)
    assert full.numel() == sum(p.numel() for p in tiny_model.parameters())
