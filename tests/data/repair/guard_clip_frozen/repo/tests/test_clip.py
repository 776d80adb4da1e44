import math

import pytest
import torch

from pipestage import PipelineStage, clip_grad_norm_


def stage_after_backward(freeze_embedding):
    torch.manual_seed(0)
    stage = PipelineStage(vocab=32, hidden=8, layers=2)
    if freeze_embedding:
        stage.embedding.weight.requires_grad_(False)
    tokens = torch.randint(0, 32, (4, 6))
    stage(tokens).pow(2).mean().backward()
    return stage


def grad_norm(stage):
    return math.sqrt(sum(p.grad.pow(2).sum().item() for p in stage.parameters() if p.grad is not None))


def test_clip_all_trainable():
    stage = stage_after_backward(freeze_embedding=False)
    expected = grad_norm(stage)
    norm = clip_grad_norm_(stage.parameters(), max_norm=1e-3)
    assert norm == pytest.approx(expected, rel=1e-5)
    assert grad_norm(stage) == pytest.approx(1e-3, rel=1e-3)


def test_clip_no_op_below_max_norm():
    stage = stage_after_backward(freeze_embedding=False)
    before = [p.grad.clone() for p in stage.parameters()]
    clip_grad_norm_(stage.parameters(), max_norm=1e6)
    for p, g in zip(stage.parameters(), before):
        assert torch.equal(p.grad, g)


def test_clip_with_frozen_embedding():
    stage = stage_after_backward(freeze_embedding=True)
    expected = grad_norm(stage)
    norm = clip_grad_norm_(stage.parameters(), max_norm=1e-3)
    assert norm == pytest.approx(expected, rel=1e-5)
    assert stage.embedding.weight.grad is None
    assert grad_norm(stage) == pytest.approx(1e-3, rel=1e-3)
