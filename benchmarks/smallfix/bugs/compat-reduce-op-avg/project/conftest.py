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
def dist_init():
    """One gloo process group per pytest session (one per rank under a launcher)."""
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(_free_port()))
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    yield dist.get_rank(), dist.get_world_size()
    dist.destroy_process_group()
