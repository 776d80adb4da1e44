"""The tests run as one process or as several ranks started with torchrun's environment.

CI also runs them under the oldest torch we support, 1.12: there ``dist.reduce_scatter_tensor``
does not exist yet, only the private ``dist._reduce_scatter_base``. That release is emulated
here by removing the public name (gloo has no reduce-scatter, so the private one is emulated
with an all-reduce).
"""
import datetime
import os
import socket

import pytest
import torch
import torch.distributed as dist


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def dist_env():
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(_free_port()))
    dist.init_process_group("gloo", init_method="env://", timeout=datetime.timedelta(seconds=30))
    yield dist.get_rank(), dist.get_world_size()
    dist.destroy_process_group()


def _emulated_reduce_scatter_base(output, input, op=dist.ReduceOp.SUM, group=None, async_op=False):
    total = input.clone()
    dist.all_reduce(total, op=op, group=group)
    output.copy_(total.chunk(dist.get_world_size(group=group))[dist.get_rank(group=group)])


@pytest.fixture(autouse=True)
def torch_1_12(monkeypatch):
    monkeypatch.delattr(dist, "reduce_scatter_tensor", raising=False)
    monkeypatch.setattr(dist, "_reduce_scatter_base", _emulated_reduce_scatter_base, raising=False)
