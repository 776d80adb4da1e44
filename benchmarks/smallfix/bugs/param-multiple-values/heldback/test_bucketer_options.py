import torch
import torch.distributed as dist
from torch import nn

from gradbucket.bucketer import GradBucketer


def test_sum_without_average_and_missing_grads(dist_init):
    rank, world_size = dist_init
    model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
    for p in model[1].parameters():
        p.grad = torch.ones_like(p)
    bucketer = GradBucketer(model.parameters(), bucket_cap_numel=1000,
                            group=dist.group.WORLD, average=False)
    bucketer.reduce_gradients()
    assert bucketer.buckets_reduced == 1
    assert torch.equal(model[0].weight.grad, torch.zeros(3, 2))
    assert torch.allclose(model[1].weight.grad, torch.full((1, 3), float(world_size)))


def test_repeated_reductions(dist_init):
    model = nn.Linear(3, 3)
    bucketer = GradBucketer(model.parameters(), bucket_cap_numel=4)
    for _ in range(2):
        for p in model.parameters():
            p.grad = torch.ones_like(p)
        bucketer.reduce_gradients()
    assert bucketer.buckets_reduced == 4
    assert bucketer.bucket == []
