import pytest

from moe.layer import ExpertLayer
from moe.loss import scaled_aux_loss, total_aux_loss


def _layers(batches):
    layers = [ExpertLayer(f"expert{i}") for i in range(len(batches))]
    for layer, tokens in zip(layers, batches):
        layer.route(tokens)
    return layers


def test_balanced_routing():
    layers = _layers([[1, 2], [3, 4], [5, 6, 7, 8]])
    assert total_aux_loss(layers) == pytest.approx(0.0625 + 0.0625 + 0.25)


def test_scaled():
    layers = _layers([[1, 2, 3, 4]])
    assert scaled_aux_loss(layers, coefficient=2.0) == pytest.approx(0.5)


def test_expert_that_routed_nothing():
    # The router sent no token to the second expert: it has no loss to add.
    layers = _layers([[1, 2, 3, 4], [], [5, 6, 7, 8]])
    assert total_aux_loss(layers) == pytest.approx(0.5)
