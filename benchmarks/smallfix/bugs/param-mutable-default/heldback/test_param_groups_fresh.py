from torch import nn

from moeopt.model import TinyMoEBlock
from moeopt.param_groups import build_optimizer, get_param_groups


def test_repeated_calls_are_independent():
    a = get_param_groups(TinyMoEBlock(), 0.1)
    b = get_param_groups(TinyMoEBlock(), 0.1)
    assert a is not b
    assert len(a) == len(b) == 4
    assert not any(pa is pb for ga in a for pa in ga["params"] for gb in b for pb in gb["params"])


def test_two_models_two_optimizers():
    m1, m2 = TinyMoEBlock(), TinyMoEBlock(hidden=6, experts=3)
    o1 = build_optimizer(m1)
    o2 = build_optimizer(m2)
    n1 = sum(len(g["params"]) for g in o1.param_groups)
    n2 = sum(len(g["params"]) for g in o2.param_groups)
    assert n1 == len(list(m1.parameters()))
    assert n2 == len(list(m2.parameters()))


def test_extra_groups_list_given_twice():
    head = nn.Linear(4, 2)
    extra = [{"params": list(head.parameters())}]
    g1 = get_param_groups(TinyMoEBlock(), 0.0, extra)
    assert len(g1) == 1 + 2
    g2 = get_param_groups(TinyMoEBlock(), 0.0)
    assert len(g2) == 2
