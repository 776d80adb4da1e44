import torch

from tengine import TrainEngine


def run(clip):
    torch.manual_seed(1)
    model = torch.nn.Linear(2, 1, bias=False)
    engine = TrainEngine(model, torch.optim.SGD(model.parameters(), lr=1.0),
                         gradient_clipping=clip)
    w0 = model.weight.detach().clone()
    engine.backward(model(torch.full((1, 2), 3.0)).sum())
    engine.step()
    return w0, model.weight.detach(), engine


def test_zero_and_none_both_disable_clipping():
    for clip in (None, 0, 0.0):
        w0, w1, engine = run(clip)
        assert torch.allclose(w0 - w1, torch.full((1, 2), 3.0))
        assert engine.last_grad_norm is None


def test_positive_clip_is_applied():
    w0, w1, engine = run(1.0)
    assert torch.allclose((w0 - w1).norm(), torch.tensor(1.0), atol=1e-5)
    assert abs(engine.last_grad_norm - 18 ** 0.5) < 1e-4


def test_scheduler_steps_without_clipping():
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    engine = TrainEngine(model, opt, lr_scheduler=sched)
    engine.backward(model(torch.ones(1, 2)).sum())
    engine.step()
    assert opt.param_groups[0]["lr"] == 0.5
