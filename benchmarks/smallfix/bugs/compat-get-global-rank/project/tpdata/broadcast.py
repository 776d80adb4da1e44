"""Only the first rank of a tensor-parallel group reads the data; it broadcasts the batch.

Shapes are broadcast first (as one int64 tensor), then the values flattened
into a single buffer.
"""
import torch
import torch.distributed as dist

_MAX_DIMS = 4


def get_src_rank(group):
    """Global rank of the group's first member, the one that owns the data loader."""
    return dist.get_global_rank(group, 0)


def _pack_sizes(keys, data):
    sizes = torch.zeros(len(keys), _MAX_DIMS + 1, dtype=torch.long)
    for i, key in enumerate(keys):
        shape = data[key].shape
        assert len(shape) <= _MAX_DIMS, "at most %d dims" % _MAX_DIMS
        sizes[i, 0] = len(shape)
        sizes[i, 1:1 + len(shape)] = torch.tensor(shape, dtype=torch.long)
    return sizes


def broadcast_data(keys, data, datatype, group):
    """Return ``{key: tensor}`` on every rank of ``group``; ``data`` is only read on the source rank."""
    if dist.get_world_size(group=group) == 1:
        return {key: data[key].to(datatype) for key in keys}
    src = get_src_rank(group)
    is_src = dist.get_rank() == src
    sizes = _pack_sizes(keys, data) if is_src else torch.zeros(len(keys), _MAX_DIMS + 1, dtype=torch.long)
    dist.broadcast(sizes, src, group=group)
    shapes = [tuple(row[1:1 + row[0]].tolist()) for row in sizes]
    total = sum(int(torch.tensor(s).prod()) if s else 1 for s in shapes)
    if is_src:
        flat = torch.cat([data[key].to(datatype).reshape(-1) for key in keys])
    else:
        flat = torch.empty(total, dtype=datatype)
    dist.broadcast(flat, src, group=group)
    out, offset = {}, 0
    for key, shape in zip(keys, shapes):
        numel = int(torch.tensor(shape).prod()) if shape else 1
        out[key] = flat[offset:offset + numel].view(shape)
        offset += numel
    return out
