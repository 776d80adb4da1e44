import torch

from minizero import GradientReducer


def test_unused_param_keeps_none_grad_and_buckets_skip_it():
    torch.manual_seed(1)
    used = torch.nn.Linear(4, 4)
    unused = torch.nn.Linear(4, 4)
    used(torch.randn(2, 4)).sum().backward()
    params = list(unused.parameters()) + list(used.parameters())
    reducer = GradientReducer(params, bucket_size=10)
    buckets = reducer.build_buckets()
    flat = [p for b in buckets for p in b]
    assert len(flat) == 2
    assert all(p.grad is not None for p in flat)
    reducer.reduce_gradients()
    assert unused.weight.grad is None and unused.bias.grad is None


def test_interleaved_frozen_params_bucket_sizes():
    torch.manual_seed(2)
    layers = [torch.nn.Linear(6, 6) for _ in range(4)]
    for layer in layers[::2]:
        layer.requires_grad_(False)
    x = torch.randn(2, 6)
    for layer in layers:
        x = layer(x)
    x.sum().backward()
    params = [p for layer in layers for p in layer.parameters()]
    reducer = GradientReducer(params, bucket_size=42)
    buckets = reducer.build_buckets()
    assert [len(b) for b in buckets] == [2, 2]
    reducer.reduce_gradients()
    assert reducer.reductions == 2
