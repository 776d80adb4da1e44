import torch

from pipe import LayerSpec, PipelineModule


def test_every_stage_range_from_last_stage():
    layers = [LayerSpec(torch.nn.Linear, 4, 4) for _ in range(6)]
    pm = PipelineModule(layers, num_stages=3, stage_id=2, partition_method="uniform")
    ranges = [pm.layer_range(s) for s in range(3)]
    assert ranges == [(0, 2), (2, 4), (4, 6)]
    assert pm.layer_range() == (4, 6)


def test_stage_zero_module_own_range():
    layers = [LayerSpec(torch.nn.Linear, 4, 4) for _ in range(3)]
    pm = PipelineModule(layers, num_stages=3, stage_id=0, partition_method="uniform")
    assert pm.layer_range() == (0, 1)
    assert pm.layer_range(0) == (0, 1)
    assert pm.layer_range(2) == (2, 3)
