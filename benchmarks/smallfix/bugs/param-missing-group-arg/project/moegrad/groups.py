"""Process groups for expert parallelism.

With ``ep_size`` experts-parallel ranks, the experts of one MoE layer are
spread over ``ep_size`` consecutive ranks; ranks that hold the same experts
form an *expert data-parallel* group and average those experts' gradients.
"""
import torch.distributed as dist

_EXPERT_PARALLEL_GROUP = {}
_EXPERT_DATA_PARALLEL_GROUP = {}


def group_name(ep_size):
    return "ep_size_%d" % ep_size


def initialize(ep_size=1):
    world_size = dist.get_world_size()
    rank = dist.get_rank()
    if world_size % ep_size != 0:
        raise ValueError("world size %d is not divisible by ep_size %d" % (world_size, ep_size))
    name = group_name(ep_size)
    # every rank must create every group, in the same order
    for start in range(0, world_size, ep_size):
        ranks = list(range(start, start + ep_size))
        group = dist.new_group(ranks)
        if rank in ranks:
            _EXPERT_PARALLEL_GROUP[name] = group
    for offset in range(ep_size):
        ranks = list(range(offset, world_size, ep_size))
        group = dist.new_group(ranks)
        if rank in ranks:
            _EXPERT_DATA_PARALLEL_GROUP[name] = group
    return name


def get_expert_parallel_group(name):
    return _EXPERT_PARALLEL_GROUP[name]


def get_expert_data_parallel_group(name):
    return _EXPERT_DATA_PARALLEL_GROUP[name]
