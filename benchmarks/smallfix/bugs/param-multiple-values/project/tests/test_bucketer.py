import torch
from torch import nn

from gradbucket.bucketer import GradBucketer
from gradbucket.comm import all_reduce_coalesced


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


def test_bucket_assignment_respects_cap():
    bucketer = GradBucketer(_model().parameters(), bucket_cap_numel=20)
    # numels in reverse order: 2, 16, 8, 32
    assert bucketer.assign_buckets() == [[3, 2], [1], [0]]


def test_coalesced_all_reduce(dist_init):
    rank, world_size = dist_init
    a, b = torch.full((3,), float(rank)), torch.full((2, 2), 2.0 * rank)
    all_reduce_coalesced([a, b])
    mean = (world_size - 1) / 2
    assert torch.allclose(a, torch.full((3,), mean))
    assert torch.allclose(b, torch.full((2, 2), 2 * mean))


def test_reduce_gradients(dist_init):
    rank, world_size = dist_init
    model = _model()
    for p in model.parameters():
        p.grad = torch.full_like(p, float(rank + 1))
    bucketer = GradBucketer(model.parameters(), bucket_cap_numel=20)
    bucketer.reduce_gradients()
    assert bucketer.buckets_reduced == 3
    for p in model.parameters():
        assert torch.allclose(p.grad, torch.full_like(p, (world_size + 1) / 2))
