import torch
import torch.distributed as dist

from moegrad import groups
from moegrad.layer import MoE
from moegrad.reduce import allreduce_gradients


def test_expert_parallel_keeps_local_expert_grads(dist_init):
    rank, world_size = dist_init
    name = groups.initialize(ep_size=world_size)
    layer = MoE(3, 2, name)
    for param in layer.parameters():
        param.grad = torch.full_like(param, float(rank + 1))
    allreduce_gradients(layer)
    # experts are sharded over all ranks: nothing to average them with
    for param in layer.experts.parameters():
        assert torch.allclose(param.grad, torch.full_like(param, float(rank + 1)))
    # the gate is replicated everywhere
    assert torch.allclose(layer.gate.weight.grad, torch.full_like(layer.gate.weight, (world_size + 1) / 2))


def test_expert_grads_use_expert_data_parallel_group(dist_init):
    rank, world_size = dist_init
    name = groups.initialize(ep_size=1)
    layer = MoE(3, 1, name)
    for param in layer.parameters():
        param.grad = torch.full_like(param, float(rank * 10))
    allreduce_gradients(layer, dp_group=dist.group.WORLD)
    mean = 10.0 * (world_size - 1) / 2
    for param in layer.parameters():
        assert torch.allclose(param.grad, torch.full_like(param, mean))
