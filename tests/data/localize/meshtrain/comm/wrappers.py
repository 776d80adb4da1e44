"""Checked wrappers of the collectives: a wrong argument fails here, before any rank waits."""
import torch
import torch.distributed as dist


def _check_tensor(tensor, name):
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"Expected {name} to be of type torch.Tensor, got {type(tensor).__name__}")


def _check_op(op):
    if op not in ("sum", "avg", "max"):
        raise ValueError(f"invalid argument op={op!r}: use 'sum', 'avg' or 'max'")


def all_reduce(tensor, op="sum", group=None):
    _check_tensor(tensor, "tensor")
    _check_op(op)
    if not dist.is_initialized():
        return tensor
    if op == "avg":
        dist.all_reduce(tensor, group=group)
        return tensor.div_(dist.get_world_size(group))
    dist.all_reduce(tensor, op=getattr(dist.ReduceOp, op.upper()), group=group)
    return tensor


def broadcast(tensor, src=0, group=None):
    _check_tensor(tensor, "tensor")
    if src < 0:
        raise ValueError(f"src must be a non-negative rank, got {src}")
    if dist.is_initialized():
        dist.broadcast(tensor, src=src, group=group)
    return tensor


def all_gather(tensors, tensor, group=None):
    if not isinstance(tensors, list):
        raise TypeError(f"invalid argument 'tensors': expected a list of tensors, got {type(tensors).__name__}")
    _check_tensor(tensor, "tensor")
    if not dist.is_initialized():
        tensors[0].copy_(tensor)
        return tensors
    dist.all_gather(tensors, tensor, group=group)
    return tensors
