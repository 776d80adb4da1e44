import torch

from zshard import FlatMasterOptimizer


def test_empty_group_in_the_middle_keeps_other_groups_in_order():
    torch.manual_seed(1)
    a, b = torch.nn.Linear(3, 3, bias=False), torch.nn.Linear(3, 3, bias=False)
    groups = [{"params": [a.weight], "lr": 0.5}, {"params": []}, {"params": [b.weight], "lr": 0.0}]
    opt = FlatMasterOptimizer(torch.optim.SGD(groups, lr=0.1))
    wa, wb = a.weight.detach().clone(), b.weight.detach().clone()
    (a(torch.ones(1, 3)).sum() + b(torch.ones(1, 3)).sum()).backward()
    opt.step()
    assert torch.allclose(a.weight, wa - 0.5)
    assert torch.equal(b.weight, wb)
    opt.zero_grad()
    assert a.weight.grad is None


def test_all_frozen_group_is_skipped():
    torch.manual_seed(2)
    frozen, live = torch.nn.Linear(2, 2), torch.nn.Linear(2, 2)
    frozen.requires_grad_(False)
    opt = FlatMasterOptimizer(torch.optim.SGD(
        [{"params": list(frozen.parameters())}, {"params": list(live.parameters())}], lr=1.0))
    before = frozen.weight.clone()
    live(frozen(torch.ones(1, 2))).sum().backward()
    opt.step()
    assert torch.equal(before, frozen.weight)
