"""Tensor-model-parallel and data-parallel process groups.

Ranks are laid out tensor-parallel first: with tp_size=2 on 4 ranks the
tensor-parallel groups are [0, 1] and [2, 3], the data-parallel groups [0, 2]
and [1, 3].
"""
import torch.distributed as dist

_TENSOR_MODEL_PARALLEL_GROUP = None
_DATA_PARALLEL_GROUP = None


def initialize_model_parallel(tensor_model_parallel_size=1):
    global _TENSOR_MODEL_PARALLEL_GROUP, _DATA_PARALLEL_GROUP
    world_size = dist.get_world_size()
    rank = dist.get_rank()
    tp = tensor_model_parallel_size
    if world_size % tp != 0:
        raise RuntimeError("world size (%d) is not divisible by tensor parallel size (%d)" % (world_size, tp))
    for start in range(0, world_size, tp):
        ranks = list(range(start, start + tp))
        group = dist.new_group(ranks)
        if rank in ranks:
            _TENSOR_MODEL_PARALLEL_GROUP = group
    for offset in range(tp):
        ranks = list(range(offset, world_size, tp))
        group = dist.new_group(ranks)
        if rank in ranks:
            _DATA_PARALLEL_GROUP = group


def get_tensor_model_parallel_group():
    assert _TENSOR_MODEL_PARALLEL_GROUP is not None, "tensor model parallel group is not initialized"
    return _TENSOR_MODEL_PARALLEL_GROUP


def get_data_parallel_group():
    assert _DATA_PARALLEL_GROUP is not None, "data parallel group is not initialized"
    return _DATA_PARALLEL_GROUP


def get_tensor_model_parallel_world_size():
    return dist.get_world_size(group=get_tensor_model_parallel_group())


def get_tensor_model_parallel_rank():
    return dist.get_rank(group=get_tensor_model_parallel_group())
