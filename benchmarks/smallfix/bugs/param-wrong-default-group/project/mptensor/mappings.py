"""Autograd-aware communication at the boundaries of tensor-parallel regions."""
import torch
import torch.distributed as dist

from mptensor import parallel_state


def _reduce(input_, group=None):
    """All-reduce ``input_`` across the tensor-model-parallel group."""
    if group is None:
        group = dist.group.WORLD
    if dist.get_world_size(group=group) == 1:
        return input_
    dist.all_reduce(input_, group=group)
    return input_


class _CopyToModelParallelRegion(torch.autograd.Function):
    """Identity in forward, all-reduce of the gradient in backward."""

    @staticmethod
    def forward(ctx, input_):
        return input_

    @staticmethod
    def backward(ctx, grad_output):
        return _reduce(grad_output.clone())


class _ReduceFromModelParallelRegion(torch.autograd.Function):
    """All-reduce in forward, identity in backward."""

    @staticmethod
    def forward(ctx, input_):
        return _reduce(input_.clone())

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def copy_to_tensor_model_parallel_region(input_):
    return _CopyToModelParallelRegion.apply(input_)


def reduce_from_tensor_model_parallel_region(input_):
    return _ReduceFromModelParallelRegion.apply(input_)
