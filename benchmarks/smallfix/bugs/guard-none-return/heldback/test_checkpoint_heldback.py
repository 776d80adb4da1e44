import pytest
import torch

from ckptio import load_checkpoint, save_checkpoint


def test_weights_only_checkpoint_keeps_fresh_optimizer_state(tmp_path):
    torch.manual_seed(1)
    model = torch.nn.Linear(3, 3)
    save_checkpoint(str(tmp_path), 5, model, client_state={"epoch": 2})
    model2 = torch.nn.Linear(3, 3)
    opt2 = torch.optim.SGD(model2.parameters(), lr=0.25, momentum=0.9)
    sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=1)
    _, client = load_checkpoint(str(tmp_path), model2, opt2, sched2, tag=5)
    assert client == {"epoch": 2}
    assert opt2.param_groups[0]["lr"] == 0.25
    assert opt2.state_dict()["state"] == {}
    assert torch.equal(model.bias, model2.bias)


def test_param_group_mismatch_still_reported(tmp_path):
    model = torch.nn.Linear(3, 3)
    opt = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias]}], lr=0.1)
    save_checkpoint(str(tmp_path), "a", model, opt)
    opt2 = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(ValueError, match="2 param groups"):
        load_checkpoint(str(tmp_path), model, opt2)
