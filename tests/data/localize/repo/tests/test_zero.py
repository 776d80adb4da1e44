import torch

from fastzero.runtime.engine import FastZeroEngine
from fastzero.runtime.zero.partition import FlatPartitioner, ZeroOptimizer


def test_partition_roundtrip():
    flat = torch.arange(10, dtype=torch.float32)
    parts = [FlatPartitioner().partition(flat, r, 4) for r in range(4)]
    assert torch.cat(parts)[:10].equal(flat)


def test_frozen_embeddings_step(tiny_model, base_config):
    tiny_model.embed.weight.requires_grad_(False)
    engine = FastZeroEngine(tiny_model, base_config)
    tokens = torch.randint(0, 32, (2, 6))
    loss = engine(tokens).float().mean()
    engine.backward(loss)
    engine.backward(engine(tokens).mean())
    engine.step()
    assert engine.global_steps == 1


def test_zero_step_in_process_group(single_process_group, tiny_model):
    opt = ZeroOptimizer(tiny_model.parameters(), stage=2, group=single_process_group)
    tiny_model(torch.randint(0, 32, (2, 6))).mean().backward()
    opt.step()


def test_bf16_backward(tiny_model, base_config):
    engine = FastZeroEngine(tiny_model, {**base_config, "precision": "bf16"})
    loss = engine(torch.randint(0, 32, (2, 6))).mean()
    engine.backward(loss)
    assert engine.micro_steps == 1


def test_fp16_stage0_step(tiny_model, base_config):
    cfg = {**base_config, "precision": "fp16", "gradient_accumulation_steps": 1,
           "train_batch_size": 2, "zero_optimization": {"stage": 0}}
    engine = FastZeroEngine(tiny_model, cfg)
    engine.backward(engine(torch.randint(0, 32, (2, 6))).mean())
    engine.step()
    assert engine.global_steps == 1
