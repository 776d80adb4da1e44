import math

import torch
from torch import nn

from gradnorm.clip_grads import clip_grad_norm_, get_grad_norm


def _params(*grads):
    out = []
    for g in grads:
        p = nn.Parameter(torch.zeros(len(g)))
        p.grad = torch.tensor(g)
        out.append(p)
    return out


def test_l2_norm_and_clip():
    ps = _params([3.0], [4.0])
    assert math.isclose(clip_grad_norm_(ps, 1.0), 5.0, rel_tol=1e-6)
    assert math.isclose(ps[1].grad.item(), 0.8, rel_tol=1e-4)


def test_inf_norm():
    ps = _params([1.0, -7.0], [2.0])
    assert get_grad_norm(ps, norm_type="inf") == 7.0


def test_shared_duplicate_counted_once():
    ps = _params([3.0], [3.0])
    ps[1].shared, ps[1].is_first_copy = True, False
    assert math.isclose(get_grad_norm(ps), 3.0)
