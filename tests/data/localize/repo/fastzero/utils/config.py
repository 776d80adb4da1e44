"""Configuration object built from a JSON file or a dict (DeepSpeed-style keys)."""
import json
import os

import torch

from fastzero.utils.logging import logger

DTYPES = {
    "fp32": torch.float32,
    "fp16": torch.float16,
    "bf16": torch.bfloat16,
}

ZERO_DEFAULTS = {
    "stage": 0,
    "reduce_bucket_size": 5e8,
    "overlap_comm": False,
    "contiguous_gradients": True,
}


def get_dtype(name):
    try:
        return DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype '{name}', expected one of {sorted(DTYPE)}")


class ZeroConfig:
    def __init__(self, stage, reduce_bucket_size, overlap_comm, contiguous_gradients):
        self.stage = stage
        self.reduce_bucket_size = int(reduce_bucket_size)
        self.overlap_comm = overlap_comm
        self.contiguous_gradients = contiguous_gradients

    @classmethod
    def from_dict(cls, cfg):
        zero = dict(ZERO_DEFAULTS)
        zero.update(cfg.get("zero_optimization", {}))
        stage = cfg["zero_optimization"]["stage"]
        return cls(stage, zero["reduce_bucket_size"], zero["overlap_comm"],
                   zero["contiguous_gradients"])


class FastZeroConfig:
    def __init__(self, cfg, world_size=None):
        if isinstance(cfg, str):
            with open(cfg) as f:
                cfg = json.load(f)
        self._raw = cfg
        self.world_size = world_size or int(os.environ.get("WORLD_SIZE", "1"))
        self.train_batch_size = cfg.get("train_batch_size")
        self.micro_batch_per_gpu = cfg.get("train_micro_batch_size_per_gpu", 0)
        self.gradient_accumulation_steps = cfg.get("gradient_accumulation_steps")
        self.dtype = get_dtype(cfg.get("precision", "fp32"))
        self.zero = ZeroConfig.from_dict(cfg)
        self.pipeline_stages = cfg.get("pipeline", {}).get("stages", 1)
        self.wall_clock_breakdown = cfg.get("wall_clock_breakdown", False)
        self._resolve_batch()

    def _resolve_batch(self):
        if self.gradient_accumulation_steps is None:
            self.gradient_accumulation_steps = self.get_grad_accum_steps()
        self.validate()

    def get_grad_accum_steps(self):
        dp_world = self.world_size // self.pipeline_stages
        return self.train_batch_size // (self.micro_batch_per_gpu * dp_world)

    def validate(self):
        dp_world = self.world_size // self.pipeline_stages
        expected = self.micro_batch_per_gpu * self.gradient_accumulation_steps * dp_world
        assert self.train_batch_size == expected, (
            f"Check batch related parameters. train_batch_size is not equal to "
            f"micro_batch_per_gpu * gradient_acc_step * world_size "
            f"{self.train_batch_size} != {self.micro_batch_per_gpu} * "
            f"{self.gradient_accumulation_steps} * {dp_world}")
        logger.info(f"train_batch_size={self.train_batch_size} "
                    f"micro_batch_per_gpu={self.micro_batch_per_gpu} "
                    f"gradient_accumulation_steps={self.gradient_accumulation_steps}")

    def __getitem__(self, key):
        return self._raw[key]
