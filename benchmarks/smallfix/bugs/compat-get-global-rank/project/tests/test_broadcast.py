import torch
import torch.distributed as dist

from tpdata.broadcast import _pack_sizes, broadcast_data


def test_pack_sizes():
    sizes = _pack_sizes(["a", "b"], {"a": torch.zeros(2, 3), "b": torch.zeros(5)})
    assert sizes.tolist() == [[2, 2, 3, 0, 0], [1, 5, 0, 0, 0]]


def test_broadcast_batch(dist_init):
    rank, _ = dist_init
    group = dist.new_group(list(range(dist.get_world_size())))
    if rank == 0:
        data = {"tokens": torch.arange(12).view(3, 4), "labels": torch.arange(3)}
    else:
        data = None
    out = broadcast_data(["tokens", "labels"], data, torch.int64, group)
    assert torch.equal(out["tokens"], torch.arange(12).view(3, 4))
    assert torch.equal(out["labels"], torch.arange(3))
