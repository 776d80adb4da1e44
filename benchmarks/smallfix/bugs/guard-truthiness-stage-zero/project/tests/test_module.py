import pytest
import torch

from pipe import LayerSpec, PipelineModule


def specs(n=4, width=8):
    return [LayerSpec(torch.nn.Linear, width, width) for _ in range(n)]


def test_uniform_partition_boundaries():
    pm = PipelineModule(specs(6), num_stages=3, stage_id=1, partition_method="uniform")
    assert pm.parts == [0, 2, 4, 6]
    assert len(pm.local_layers) == 2


def test_parameter_partition_balances_big_layer():
    layers = [LayerSpec(torch.nn.Linear, 32, 32)] + specs(3, 4)
    pm = PipelineModule(layers, num_stages=2, stage_id=1)
    assert pm.parts == [0, 1, 4]
    assert pm(torch.randn(2, 4)).shape == (2, 4)


def test_bad_stage_id():
    with pytest.raises(ValueError, match="outside"):
        PipelineModule(specs(), num_stages=2, stage_id=2)


def test_range_of_other_stage():
    pm = PipelineModule(specs(4), num_stages=2, stage_id=1, partition_method="uniform")
    assert pm.layer_range() == (2, 4)
    assert pm.layer_range(1) == (2, 4)
    assert pm.layer_range(0) == (0, 2)
