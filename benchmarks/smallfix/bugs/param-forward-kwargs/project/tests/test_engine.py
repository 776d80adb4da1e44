import torch

from infer import init_inference
from infer.toy_lm import ToyLM


def _model():
    torch.manual_seed(0)
    return ToyLM()


def test_engine_matches_model():
    model = _model()
    ids = torch.randint(0, 32, (2, 5))
    expected = model(ids)
    engine = init_inference(model)
    assert torch.allclose(engine(ids), expected)


def test_engine_eval_and_timers():
    engine = init_inference(_model(), enable_timers=True)
    assert not engine.module.training
    engine(torch.randint(0, 32, (1, 4)))
    engine(torch.randint(0, 32, (1, 4)))
    assert len(engine.model_times()) == 2
    assert engine.model_times() == []


def test_engine_with_attention_mask():
    model = _model()
    ids = torch.randint(0, 32, (2, 6))
    mask = torch.ones(2, 6, dtype=torch.long)
    mask[1, :2] = 0  # left padding
    expected = model(ids, attention_mask=mask)
    engine = init_inference(model)
    out = engine(ids, attention_mask=mask)
    assert torch.allclose(out[0], expected[0])
    assert torch.allclose(out[1, 2:], expected[1, 2:])
