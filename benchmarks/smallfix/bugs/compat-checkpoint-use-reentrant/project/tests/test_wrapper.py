import torch
from torch import nn

from recompute.wrapper import CheckpointedBlock, apply_activation_checkpointing


def _layers():
    torch.manual_seed(0)
    return [nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(4)]


def test_every_other_layer_wrapped():
    layers = apply_activation_checkpointing(_layers(), every=2)
    assert [isinstance(l, CheckpointedBlock) for l in layers] == [True, False, True, False]


def test_eval_mode_skips_checkpoint():
    block = CheckpointedBlock(nn.Linear(4, 2)).eval()
    assert block(torch.ones(1, 4)).shape == (1, 2)


def test_training_gradients_match():
    layers = _layers()
    x = torch.randn(3, 4, requires_grad=True)
    h = x
    for layer in layers:
        h = layer(h)
    h.sum().backward()
    ref = [p.grad.clone() for l in layers for p in l.parameters()]
    for l in layers:
        l.zero_grad()
    wrapped = apply_activation_checkpointing(layers, every=1).train()
    h = x
    for layer in wrapped:
        h = layer(h)
    h.sum().backward()
    got = [p.grad for l in layers for p in l.parameters()]
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(ref, got))
