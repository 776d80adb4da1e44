import torch

from zshard import FlatMasterOptimizer, get_param_groups


def test_param_groups_split_bias_and_norm():
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.LayerNorm(4))
    decay, no_decay = get_param_groups(model, 0.1)
    assert len(decay["params"]) == 1 and len(no_decay["params"]) == 3


def test_step_matches_plain_sgd():
    torch.manual_seed(0)
    a = torch.nn.Linear(4, 3)
    b = torch.nn.Linear(4, 3)
    b.load_state_dict(a.state_dict())
    x = torch.randn(5, 4)
    ref = torch.optim.SGD(get_param_groups(a, 0.01), lr=0.1)
    opt = FlatMasterOptimizer(torch.optim.SGD(get_param_groups(b, 0.01), lr=0.1))
    for _ in range(3):
        for model, o in ((a, ref), (b, opt)):
            o.zero_grad()
            model(x).pow(2).mean().backward()
            o.step()
    assert torch.allclose(a.weight, b.weight, atol=1e-6)
    assert torch.allclose(a.bias, b.bias, atol=1e-6)


def test_model_without_biases():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8, bias=False), torch.nn.Linear(8, 2, bias=False))
    opt = FlatMasterOptimizer(torch.optim.AdamW(get_param_groups(model, 0.1), lr=1e-2))
    before = model[0].weight.detach().clone()
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    assert not torch.equal(before, model[0].weight)
