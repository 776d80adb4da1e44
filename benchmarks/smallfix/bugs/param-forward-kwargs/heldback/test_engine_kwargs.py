import torch

from infer import init_inference
from infer.toy_lm import ToyLM


def test_keyword_only_call_and_extra_kwargs():
    torch.manual_seed(3)
    model = ToyLM()
    ids = torch.randint(0, 32, (1, 4))
    expected = model(input_ids=ids, position_offset=2)
    engine = init_inference(model, enable_timers=True)
    out = engine(input_ids=ids, position_offset=2)
    assert torch.allclose(out, expected)
    assert len(engine.model_times()) == 1


def test_kwargs_with_dtype_cast():
    torch.manual_seed(4)
    model = ToyLM()
    ids = torch.randint(0, 32, (2, 3))
    mask = torch.tensor([[1, 1, 1], [0, 1, 1]])
    engine = init_inference(model, dtype=torch.float64)
    out = engine(ids, attention_mask=mask)
    assert out.dtype == torch.float64
    assert not out.requires_grad
