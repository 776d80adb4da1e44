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


def test_clip_l2():
    ps = _params([3.0, 0.0], [0.0, 4.0])
    norm = clip_grad_norm_(ps, max_norm=1.0)
    assert abs(norm.item() - 5.0) < 1e-5
    assert torch.allclose(ps[0].grad, torch.tensor([0.6, 0.0]), atol=1e-5)


def test_no_clipping_configured():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    engine = Engine(model, {"lr": 0.1})
    engine.backward(model(torch.ones(2, 3)).sum() * 100)
    engine.step()
    assert engine.global_steps == 1
    assert engine.last_grad_norm is None


def test_engine_step_clips():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    before = model.weight.detach().clone()
    engine = Engine(model, {"lr": 1.0, "gradient_clipping": 1.0})
    engine.backward(model(torch.ones(2, 3)).sum() * 100)
    engine.step()
    step = (model.weight.detach() - before).norm()
    assert engine.last_grad_norm.item() > 1.0
    assert step.item() <= 1.0 + 1e-4
