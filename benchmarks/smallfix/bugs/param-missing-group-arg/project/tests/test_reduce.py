import torch
from torch import nn

from moegrad import groups
from moegrad.layer import MoE
from moegrad.reduce import allreduce_gradients, is_moe_param


def _fill_grads(module, rank):
    for param in module.parameters():
        param.grad = torch.full_like(param, float(rank + 1))


def test_expert_params_are_tagged(dist_init):
    name = groups.initialize(ep_size=1)
    layer = MoE(4, 2, name)
    assert all(is_moe_param(p) for p in layer.experts.parameters())
    assert not is_moe_param(layer.gate.weight)


def test_dense_grads_averaged(dist_init):
    rank, world_size = dist_init
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
    _fill_grads(model, rank)
    allreduce_gradients(model)
    expected = (world_size + 1) / 2
    for param in model.parameters():
        assert torch.allclose(param.grad, torch.full_like(param, expected))


def test_moe_grads_averaged(dist_init):
    rank, world_size = dist_init
    torch.manual_seed(0)
    name = groups.initialize(ep_size=1)
    layer = MoE(4, 2, name)
    layer(torch.randn(8, 4)).sum().backward()
    _fill_grads(layer, rank)
    allreduce_gradients(layer)
    expected = (world_size + 1) / 2
    for param in layer.parameters():
        assert torch.allclose(param.grad, torch.full_like(param, expected))
