import datetime

import pytest
import torch.distributed as dist


@pytest.fixture(scope="session")
def world():
    """One gloo process group per test session, from the launcher's environment."""
    if not dist.is_initialized():
        dist.init_process_group("gloo", init_method="env://",
                                timeout=datetime.timedelta(seconds=15))
    yield dist.get_rank(), dist.get_world_size()
    dist.destroy_process_group()
