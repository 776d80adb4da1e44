import os

import torch
from torch import nn

from ckptio.checkpoint import TrainingArgs, load_checkpoint, save_checkpoint


def _setup(seed):
    torch.manual_seed(seed)
    model = nn.Linear(3, 2)
    return model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


def test_save_writes_latest(tmp_path):
    model, opt = _setup(0)
    save_checkpoint(str(tmp_path), "global_step10", model, opt, TrainingArgs(lr=0.1))
    assert (tmp_path / "latest").read_text() == "global_step10"
    assert os.path.exists(tmp_path / "global_step10" / "model_states.pt")


def test_roundtrip(tmp_path):
    model, opt = _setup(0)
    model(torch.ones(1, 3)).sum().backward()
    opt.step()
    save_checkpoint(str(tmp_path), "global_step1", model, opt, TrainingArgs(lr=0.1, seed=1234),
                    client_state={"iteration": 1})
    other, other_opt = _setup(1)
    tag, args, client_state = load_checkpoint(str(tmp_path), other, other_opt)
    assert tag == "global_step1"
    assert args.seed == 1234
    assert client_state == {"iteration": 1}
    assert torch.equal(other.weight, model.weight)
