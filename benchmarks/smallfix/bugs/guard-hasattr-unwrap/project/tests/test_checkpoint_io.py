import torch

from booster import GeneralCheckpointIO, ModelWrapper


def net():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 2))


def test_wrapped_model_roundtrip_is_unwrapped(tmp_path):
    model = ModelWrapper(ModelWrapper(net()))
    io = GeneralCheckpointIO(max_shard_numel=40)
    assert io.save_model(model, str(tmp_path)) == 2
    sd = torch.load(str(tmp_path / "model-00000.bin"))
    assert list(sd) == ["0.weight", "0.bias"]
    other = ModelWrapper(torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 2)))
    io.load_model(other, str(tmp_path))
    assert torch.equal(other.unwrap()[1].weight, model.unwrap()[1].weight)


def test_load_into_plain_module(tmp_path):
    io = GeneralCheckpointIO()
    io.save_model(ModelWrapper(net()), str(tmp_path))
    plain = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 2))
    io.load_model(plain, str(tmp_path))
    assert torch.equal(plain[0].bias, net()[0].bias)


def test_save_plain_module(tmp_path):
    io = GeneralCheckpointIO()
    assert io.save_model(net(), str(tmp_path)) == 1
    wrapped = ModelWrapper(torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 2)))
    io.load_model(wrapped, str(tmp_path))
    assert torch.equal(wrapped.unwrap()[0].weight, net()[0].weight)
