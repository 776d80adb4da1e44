"""Recompute a block in backward instead of keeping its activations.

The block's inputs are identical on every tensor-parallel rank, so each rank
keeps only a 1/mp_size slice of them and all-gathers them again in backward.
"""
import torch
import torch.distributed as dist

from actckpt.partition import gather_partitioned_activation, partition_activation


def save_inputs(args, group):
    mp_size = dist.get_world_size(group=group)
    saved = []
    for arg in args:
        if not torch.is_tensor(arg) or mp_size == 1:
            saved.append((arg, None, None))
            continue
        mp_rank = dist.get_rank(group=group)
        part = partition_activation(arg, mp_world_size=mp_size, mp_rank=mp_rank)
        saved.append((part, arg.shape, arg.requires_grad))
    return saved


def restore_inputs(saved, group):
    inputs = []
    for value, shape, requires_grad in saved:
        if shape is None:
            if torch.is_tensor(value):
                value = value.detach().requires_grad_(value.requires_grad)
            inputs.append(value)
            continue
        full = gather_partitioned_activation(value, shape, group=group)
        inputs.append(full.requires_grad_(requires_grad))
    return inputs


class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, group, *args):
        ctx.run_function = run_function
        ctx.group = group
        with torch.no_grad():
            outputs = run_function(*args)
        ctx.saved = save_inputs(args, group)
        return outputs

    @staticmethod
    def backward(ctx, *grads):
        inputs = restore_inputs(ctx.saved, ctx.group)
        with torch.enable_grad():
            outputs = ctx.run_function(*inputs)
        if torch.is_tensor(outputs):
            outputs = (outputs,)
        torch.autograd.backward(outputs, grads)
        input_grads = tuple(x.grad if torch.is_tensor(x) else None for x in inputs)
        return (None, None) + input_grads


def checkpoint(function, *args, group=None):
    """Run ``function(*args)`` without storing its activations."""
    return CheckpointFunction.apply(function, group, *args)
