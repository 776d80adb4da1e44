"""CI leg for the oldest supported torch (1.12): it has no public
``dist.get_global_rank`` (only ``distributed_c10d._get_global_rank``)."""
import pytest
import torch.distributed as dist


@pytest.fixture(autouse=True)
def torch_1_12_distributed(monkeypatch):
    monkeypatch.delattr(dist, "get_global_rank", raising=False)
