import torch

from mloop import LossTracker, train_step


def test_tracked_totals_hold_no_graph():
    torch.manual_seed(2)
    model = torch.nn.Linear(2, 1)
    tracker = LossTracker()
    data = [(torch.randn(3, 2), torch.randn(3, 1)) for _ in range(3)]
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    train_step(model, opt, data, tracker)
    total = tracker.totals["lm loss"]
    assert not total.requires_grad and total.grad_fn is None
    assert tracker.counts["lm loss"] == 3
    assert tracker.averages()["lm loss"] == total.item() / 3


def test_state_dict_is_a_copy():
    t = LossTracker()
    t.add("x", torch.tensor(2.0, requires_grad=True) * 1.0)
    state = t.state_dict()
    t.add("x", torch.tensor(4.0))
    assert state["totals"]["x"].item() == 2.0 and state["counts"]["x"] == 1
