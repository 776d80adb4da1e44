"""Average gradients across data-parallel replicas, experts in their own groups."""
from collections import defaultdict

import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

from moegrad import groups


def is_moe_param(param):
    return hasattr(param, "allreduce") and not param.allreduce


def _reduce_bucket(grads, group):
    world_size = dist.get_world_size(group=group)
    if world_size == 1:
        return
    flat = _flatten_dense_tensors(grads)
    dist.all_reduce(flat, group=group)
    flat.div_(world_size)
    for grad, synced in zip(grads, _unflatten_dense_tensors(flat, grads)):
        grad.copy_(synced)


def allreduce_gradients(module, dp_group=None):
    """Average the gradients of ``module`` over its replicas.

    Dense parameters are averaged over ``dp_group`` (the world by default);
    expert parameters, tagged with ``allreduce = False`` and ``group_name``,
    only over the ranks that hold copies of the same experts.
    """
    if dist.get_world_size() == 1:
        return
    dense = []
    experts = defaultdict(list)
    for param in module.parameters():
        if param.grad is None:
            continue
        if is_moe_param(param):
            experts[param.group_name].append(param.grad.data)
        else:
            dense.append(param.grad.data)
    if dense:
        _reduce_bucket(dense, dp_group)
    for name, grads in sorted(experts.items()):
        group = groups.get_expert_data_parallel_group(name)
        _reduce_bucket(grads)
