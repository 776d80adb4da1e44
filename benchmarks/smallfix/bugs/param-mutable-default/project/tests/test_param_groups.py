import torch
from torch import nn

from moeopt.model import TinyMoEBlock
from moeopt.param_groups import build_optimizer, get_param_groups


def test_groups_separate_experts():
    model = TinyMoEBlock()
    groups = get_param_groups(model, weight_decay=0.1)
    moe = [g for g in groups if g.get("moe")]
    assert {g["name"] for g in moe} == {"moe_decay", "moe_no_decay"}
    n_params = sum(len(g["params"]) for g in groups)
    assert n_params == len(list(model.parameters()))


def test_extra_groups_come_first():
    model = TinyMoEBlock()
    head = nn.Linear(4, 2)
    opt = build_optimizer(model, extra_groups=[{"params": list(head.parameters()), "lr": 0.5}])
    assert opt.param_groups[0]["lr"] == 0.5


def test_rebuild_optimizer():
    torch.manual_seed(0)
    model = TinyMoEBlock()
    first = build_optimizer(model, lr=1e-2)
    model(torch.randn(3, 4)).sum().backward()
    first.step()
    # e.g. after loading a checkpoint with a different learning rate
    second = build_optimizer(model, lr=5e-3)
    assert len(second.param_groups) == len(first.param_groups)
