import math

import torch
from torch import nn

from trainkit.clip import clip_grad_norm_
from trainkit.engine import Engine


def _params(*values):
    ps = []
    for v in values:
        p = nn.Parameter(torch.zeros(len(v)))
        p.grad = torch.tensor(v, dtype=torch.float32)
        ps.append(p)
    return ps


def test_inf_norm_from_config():
    model = nn.Linear(2, 1, bias=False)
    model.weight.data.zero_()
    engine = Engine(model, {"lr": 1.0, "gradient_clipping": 0.5,
                            "gradient_clipping_norm_type": "inf"})
    model.weight.grad = torch.tensor([[2.0, -1.0]])
    engine.step()
    assert abs(engine.last_grad_norm.item() - 2.0) < 1e-5
    assert torch.allclose(model.weight.detach(), torch.tensor([[-0.5, 0.25]]), atol=1e-4)


def test_l1_norm_direct():
    ps = _params([1.0, -1.0], [2.0])
    norm = clip_grad_norm_(ps, max_norm=2.0, norm_type=1.0)
    assert abs(norm.item() - 4.0) < 1e-5
    assert torch.allclose(ps[1].grad, torch.tensor([1.0]), atol=1e-4)


def test_default_is_l2_and_engine_default():
    ps = _params([3.0, 4.0])
    assert abs(clip_grad_norm_(ps, 10.0).item() - 5.0) < 1e-5
    model = nn.Linear(2, 1, bias=False)
    engine = Engine(model, {"gradient_clipping": 100.0})
    model.weight.grad = torch.tensor([[6.0, 8.0]])
    engine.step()
    assert abs(engine.last_grad_norm.item() - 10.0) < 1e-4
    assert not math.isinf(engine.last_grad_norm.item())
