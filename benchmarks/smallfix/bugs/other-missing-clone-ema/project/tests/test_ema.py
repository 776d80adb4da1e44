import torch

from mema import ModelEMA


def test_warmup_decay():
    ema = ModelEMA(torch.nn.Linear(2, 2), decay=0.99, warmup_steps=5)
    assert ema.current_decay() == 0.1
    ema.num_updates = 5
    assert ema.current_decay() == 0.99


def test_half_precision_model_gets_fp32_shadow():
    model = torch.nn.Linear(3, 3).half()
    ema = ModelEMA(model, decay=0.5)
    assert all(v.dtype == torch.float32 for v in ema.shadow.values())
    with torch.no_grad():
        model.weight.add_(1.0)
    ema.update(model)
    expected = model.weight.float() - 0.5
    assert torch.allclose(ema.shadow["weight"], expected, atol=1e-3)


def test_shadow_lags_fp32_model():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    start = model.weight.detach().clone()
    ema = ModelEMA(model, decay=0.9)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    model(torch.ones(2, 3)).sum().backward()
    opt.step()
    ema.update(model)
    expected = 0.9 * start + 0.1 * model.weight.detach()
    assert torch.allclose(ema.shadow["weight"], expected)
