import torch

from tengine import TrainEngine


def make(**kw):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return model, TrainEngine(model, opt, **kw)


def test_accumulation_boundary():
    model, engine = make(gradient_accumulation_steps=2, gradient_clipping=1.0)
    x = torch.randn(3, 4)
    engine.backward(model(x).sum())
    assert engine.step() is False
    engine.backward(model(x).sum())
    assert engine.step() is True
    assert engine.global_steps == 1


def test_clipping_limits_norm():
    model, engine = make(gradient_clipping=0.5)
    engine.backward(model(torch.full((3, 4), 10.0)).sum())
    engine.step()
    assert engine.last_grad_norm > 0.5


def test_no_clipping_configured():
    model, engine = make()
    before = model.weight.detach().clone()
    engine.backward(model(torch.randn(3, 4)).sum())
    assert engine.step() is True
    assert not torch.equal(before, model.weight)
    assert engine.last_grad_norm is None
