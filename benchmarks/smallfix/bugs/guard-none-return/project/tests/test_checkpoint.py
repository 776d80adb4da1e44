import pytest
import torch

from ckptio import load_checkpoint, save_checkpoint


def make():
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    return model, opt


def test_roundtrip_with_optimizer(tmp_path):
    model, opt = make()
    save_checkpoint(str(tmp_path), "global_step10", model, opt, client_state={"step": 10})
    model2 = torch.nn.Linear(4, 2)
    opt2 = torch.optim.Adam(model2.parameters(), lr=1e-3)
    path, client = load_checkpoint(str(tmp_path), model2, opt2)
    assert path.endswith("global_step10")
    assert client == {"step": 10}
    assert torch.equal(model.weight, model2.weight)
    assert opt2.state_dict()["state"][0]["step"] == 1


def test_missing_latest(tmp_path):
    with pytest.raises(FileNotFoundError, match="latest"):
        load_checkpoint(str(tmp_path), torch.nn.Linear(4, 2))


def test_load_weights_only_checkpoint_into_training_run(tmp_path):
    model, _ = make()
    save_checkpoint(str(tmp_path), "export", model)
    model2 = torch.nn.Linear(4, 2)
    opt2 = torch.optim.SGD(model2.parameters(), lr=0.1)
    path, client = load_checkpoint(str(tmp_path), model2, opt2)
    assert torch.equal(model.weight, model2.weight)
    assert client == {}
