import torch

from lowzero import ShardedSGD, partition_params


def test_partition_balances_numel():
    params = [torch.zeros(n) for n in (10, 6, 4, 3, 1)]
    parts = partition_params(params, 2)
    assert sorted(sum(p.numel() for p in ps) for ps in parts.values()) == [11, 13]


def reference(model_fn, xs, lr, momentum):
    model = model_fn()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
    for x in xs:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    return model


def run_sharded(model_fn, rank, world_size, lr, momentum):
    torch.manual_seed(100 + rank)
    xs = [torch.randn(4, 4) for _ in range(3)]
    model = model_fn()
    opt = ShardedSGD(model.parameters(), lr=lr, momentum=momentum)
    for x in xs:
        opt.zero_grad()
        # each rank has half of the global batch; mean of per-rank means == global mean
        model(x).pow(2).mean().backward()
        opt.step()
    all_xs = []
    for r in range(world_size):
        torch.manual_seed(100 + r)
        all_xs.append([torch.randn(4, 4) for _ in range(3)])
    global_xs = [torch.cat([all_xs[r][i] for r in range(world_size)]) for i in range(3)]
    return model, reference(model_fn, global_xs, lr, momentum)


def test_matches_sgd_many_params(world):
    rank, world_size = world
    def model_fn():
        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 2))
    model, ref = run_sharded(model_fn, rank, world_size, 0.1, 0.9)
    for a, b in zip(model.parameters(), ref.parameters()):
        assert torch.allclose(a, b, atol=1e-5)


def test_single_weight_model(world):
    rank, world_size = world
    def model_fn():
        torch.manual_seed(0)
        return torch.nn.Linear(4, 1, bias=False)
    model, ref = run_sharded(model_fn, rank, world_size, 0.1, 0.0)
    assert torch.allclose(model.weight, ref.weight, atol=1e-5)
