import datetime
import os
import socket

import pytest
import torch.distributed as dist


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def dist_env():
    """One gloo process group for the session, from torchrun's environment (or a single rank)."""
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(_free_port()))
    dist.init_process_group("gloo", init_method="env://", timeout=datetime.timedelta(seconds=600))
    yield dist.get_rank(), dist.get_world_size()
    dist.destroy_process_group()
