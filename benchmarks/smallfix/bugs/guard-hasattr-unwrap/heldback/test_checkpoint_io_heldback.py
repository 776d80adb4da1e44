import json

import torch

from booster import GeneralCheckpointIO, ModelWrapper


def test_plain_module_sharded_save_keys(tmp_path):
    torch.manual_seed(3)
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    io = GeneralCheckpointIO(max_shard_numel=9)
    n = io.save_model(model, str(tmp_path))
    weight_map = json.load(open(str(tmp_path / "model.index.json")))["weight_map"]
    assert sorted(weight_map) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    assert n == len(set(weight_map.values())) >= 2
    clone = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    io.load_model(clone, str(tmp_path))
    assert torch.equal(clone[2].weight, model[2].weight)


def test_wrapped_save_still_strips_wrapper_prefix(tmp_path):
    model = ModelWrapper(torch.nn.Linear(2, 2))
    GeneralCheckpointIO().save_model(model, str(tmp_path))
    weight_map = json.load(open(str(tmp_path / "model.index.json")))["weight_map"]
    assert sorted(weight_map) == ["bias", "weight"]
