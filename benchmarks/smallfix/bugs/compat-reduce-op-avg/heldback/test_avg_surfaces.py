import pytest
import torch
import torch.distributed as dist

from trainlog.reduce import LossLogger, average_losses_across_data_parallel_group

_ReduceOp = dist.ReduceOp


class _OldReduceOp:
    """torch < 1.11: no AVG member."""
    SUM = _ReduceOp.SUM
    PRODUCT = _ReduceOp.PRODUCT
    MIN = _ReduceOp.MIN
    MAX = _ReduceOp.MAX


@pytest.fixture(params=["installed", "no-avg"])
def surface(request, monkeypatch):
    if request.param == "no-avg":
        monkeypatch.setattr(dist, "ReduceOp", _OldReduceOp)
    return request.param


def test_average_fp16_losses(dist_init, surface):
    rank, world_size = dist_init
    losses = [torch.tensor(1.0 + rank, dtype=torch.float16), torch.tensor(-rank, dtype=torch.float16)]
    out = average_losses_across_data_parallel_group(losses, group=dist.group.WORLD)
    assert out.dtype == torch.float32
    expected = torch.tensor([1.0 + (world_size - 1) / 2, -(world_size - 1) / 2])
    assert torch.allclose(out, expected)


def test_input_losses_untouched(dist_init, surface):
    rank, _ = dist_init
    loss = torch.tensor(3.0 * rank)
    LossLogger(["x"]).log(1, [loss])
    assert loss.item() == 3.0 * rank
