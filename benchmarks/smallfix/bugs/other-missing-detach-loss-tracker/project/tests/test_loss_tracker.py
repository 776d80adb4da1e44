import torch

from mloop import LossTracker, train_step


def batches(n=2):
    torch.manual_seed(0)
    return [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(n)]


def test_averages_plain_values():
    t = LossTracker()
    t.add("a", torch.tensor(1.0))
    t.add("a", torch.tensor(3.0))
    assert t.averages() == {"a": 2.0}
    t.reset()
    assert t.averages() == {}


def test_train_step_updates_model():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    before = model.weight.detach().clone()
    tracker = LossTracker()
    train_step(model, torch.optim.SGD(model.parameters(), lr=0.1), batches(), tracker)
    assert not torch.equal(before, model.weight)
    assert tracker.counts["lm loss"] == 2


def test_checkpoint_tracker_after_training():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    tracker = LossTracker()
    train_step(model, torch.optim.SGD(model.parameters(), lr=0.1), batches(), tracker)
    state = tracker.state_dict()
    resumed = LossTracker()
    resumed.load_state_dict(state)
    assert resumed.averages() == tracker.averages()
