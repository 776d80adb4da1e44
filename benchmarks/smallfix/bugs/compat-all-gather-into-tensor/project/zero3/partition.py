"""Partition parameters across data-parallel ranks and gather them back for compute."""
import contextlib

import torch
import torch.distributed as dist

from zero3.comm import allgather_into_flat


def _shard_numel(numel, world_size):
    return (numel + world_size - 1) // world_size


def partition_param(param, group=None):
    """Keep only this rank's (zero-padded) shard; the full tensor is freed."""
    world_size = dist.get_world_size(group=group)
    rank = dist.get_rank(group=group)
    shard = _shard_numel(param.numel(), world_size)
    flat = torch.zeros(shard * world_size, dtype=param.dtype)
    flat[: param.numel()].copy_(param.data.reshape(-1))
    param.ds_shape = param.shape
    param.ds_numel = param.numel()
    param.ds_group = group
    param.ds_tensor = flat.narrow(0, rank * shard, shard).clone()
    param.data = torch.empty(0, dtype=param.dtype)
    return param


def gather_param(param):
    world_size = dist.get_world_size(group=param.ds_group)
    buffer = torch.empty(param.ds_tensor.numel() * world_size, dtype=param.dtype)
    allgather_into_flat(buffer, param.ds_tensor, group=param.ds_group)
    param.data = buffer[: param.ds_numel].view(param.ds_shape)
    return param


def release_param(param):
    param.data = torch.empty(0, dtype=param.dtype)


@contextlib.contextmanager
def GatheredParameters(params):
    params = list(params)
    for p in params:
        gather_param(p)
    try:
        yield params
    finally:
        for p in params:
            release_param(p)
