import torch

from minizero import GradientReducer


def make_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))


def test_buckets_respect_size():
    model = make_model()
    model(torch.randn(3, 8)).sum().backward()
    reducer = GradientReducer(model.parameters(), bucket_size=150)
    buckets = reducer.build_buckets()
    assert len(buckets) > 1
    for bucket in buckets:
        assert sum(p.numel() for p in bucket) <= 150 or len(bucket) == 1
    assert sum(len(b) for b in buckets) == 4


def test_single_process_reduction_keeps_grads():
    model = make_model()
    model(torch.randn(3, 8)).sum().backward()
    before = [p.grad.clone() for p in model.parameters()]
    GradientReducer(model.parameters(), bucket_size=100).reduce_gradients()
    for b, p in zip(before, model.parameters()):
        assert torch.equal(b, p.grad)


def test_frozen_param():
    model = make_model()
    for p in model[0].parameters():
        p.requires_grad_(False)
    model(torch.randn(3, 8)).sum().backward()
    before = [p.grad.clone() for p in model[2].parameters()]
    reducer = GradientReducer(model.parameters(), bucket_size=100)
    reducer.reduce_gradients()
    assert reducer.reductions >= 1
    for b, p in zip(before, model[2].parameters()):
        assert torch.equal(b, p.grad)
