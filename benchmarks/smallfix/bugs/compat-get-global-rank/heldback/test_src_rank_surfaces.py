import pytest
import torch
import torch.distributed as dist
from torch.distributed import distributed_c10d

from tpdata.broadcast import broadcast_data, get_src_rank


@pytest.fixture(params=["torch-1.12", "torch-2.x"])
def surface(request, monkeypatch):
    if request.param == "torch-1.12":
        monkeypatch.delattr(dist, "get_global_rank", raising=False)
    else:
        monkeypatch.delattr(distributed_c10d, "_get_global_rank", raising=False)
    return request.param


def test_src_rank_of_subgroup(dist_init, surface):
    rank, world_size = dist_init
    # create every group on every rank before anything can fail
    last = dist.new_group([world_size - 1])
    everyone = dist.new_group(list(range(world_size)))
    assert get_src_rank(everyone) == 0
    if rank == world_size - 1:
        assert get_src_rank(last) == world_size - 1


def test_broadcast_float_batch(dist_init, surface):
    rank, world_size = dist_init
    group = dist.new_group(list(range(world_size)))
    data = {"x": torch.full((2, 2), 7.5), "mask": torch.ones(4, dtype=torch.bool)} if rank == 0 else None
    out = broadcast_data(["x", "mask"], data, torch.float32, group)
    assert torch.equal(out["x"], torch.full((2, 2), 7.5))
    assert torch.equal(out["mask"], torch.ones(4))
