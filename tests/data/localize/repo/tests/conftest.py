import os
import socket

import pytest
import torch
import torch.distributed as dist

from fastzero.utils.config import FastZeroConfig


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def base_config():
    return {
        "train_batch_size": 4,
        "train_micro_batch_size_per_gpu": 2,
        "gradient_accumulation_steps": 2,
        "zero_optimization": {"stage": 1},
    }


@pytest.fixture
def zero_config(request, base_config):
    overrides = getattr(request, "param", {})
    cfg = {**base_config, **overrides}
    return FastZeroConfig(cfg, world_size=1)


@pytest.fixture
def single_process_group():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ["MASTER_PORT"] = str(_free_port())
    dist.init_process_group("gloo", rank=0, world_size=1)
    yield dist.group.WORLD
    dist.destroy_process_group()


@pytest.fixture
def tiny_model():
    from fastzero.model.gpt import TinyGPT
    torch.manual_seed(0)
    return TinyGPT(vocab=32, hidden=8, layers=1)
