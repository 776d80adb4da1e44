"""Thin wrappers over torch.distributed used by the runtime."""
import datetime
import os

import torch
import torch.distributed as dist

from fastzero.utils.logging import logger

_TIMEOUT = datetime.timedelta(seconds=int(os.environ.get("FASTZERO_COMM_TIMEOUT", "1800")))


def init_distributed(backend="gloo", timeout=None):
    if dist.is_initialized():
        return
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    logger.info(f"Initializing TorchBackend in fastzero with backend {backend}")
    dist.init_process_group(backend, rank=rank, world_size=world_size,
                            timeout=timeout or _TIMEOUT)


def get_rank(group=None):
    return dist.get_rank(group=group)


def get_world_size(group=None):
    if not dist.is_initialized():
        return 1
    return dist.get_world_size(group=group)


def all_reduce(tensor, op=dist.ReduceOp.SUM, group=None, async_op=False):
    return dist.all_reduce(tensor, op=op, group=group, async_op=async_op)


def all_gather_flat(output, tensor, group=None):
    """Gather equally sized flat partitions into one contiguous output tensor."""
    return dist.all_gather_into_tensor(output, tensor, group=group)


def broadcast(tensor, src, group=None):
    return dist.broadcast(tensor, src, group=group)


def barrier(group=None):
    if dist.is_initialized():
        dist.barrier(group=group)
