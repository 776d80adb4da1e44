import torch

from ddplite import allreduce_gradients, broadcast_params


def model_and_data(rank):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 1))
    torch.manual_seed(10 + rank)
    return model, torch.randn(4, 3), torch.randn(4, 1)


def test_broadcast_params_makes_weights_equal(world):
    rank, _ = world
    torch.manual_seed(rank)
    model = torch.nn.Linear(2, 2)
    broadcast_params(model)
    torch.manual_seed(0)
    assert torch.equal(model.weight, torch.nn.Linear(2, 2).weight)


def test_params_without_grad_are_skipped(world):
    model = torch.nn.Linear(2, 2)
    model.bias.requires_grad_(False)
    model(torch.ones(1, 2)).sum().backward()
    allreduce_gradients(model)
    assert model.bias.grad is None


def test_matches_global_batch_gradient(world):
    rank, world_size = world
    model, x, y = model_and_data(rank)
    torch.nn.functional.mse_loss(model(x), y).backward()
    allreduce_gradients(model)

    ref = model_and_data(0)[0]
    xs, ys = zip(*(model_and_data(r)[1:] for r in range(world_size)))
    torch.nn.functional.mse_loss(ref(torch.cat(xs)), torch.cat(ys)).backward()
    for p, q in zip(model.parameters(), ref.parameters()):
        assert torch.allclose(p.grad, q.grad, atol=1e-6)
