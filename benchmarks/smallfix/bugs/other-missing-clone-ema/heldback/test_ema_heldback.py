import torch

from mema import ModelEMA


def test_swap_in_and_out_restores_training_weights():
    torch.manual_seed(1)
    model = torch.nn.Linear(2, 2)
    ema = ModelEMA(model, decay=0.5)
    init = {n: p.detach().clone() for n, p in model.named_parameters()}
    with torch.no_grad():
        for p in model.parameters():
            p.add_(2.0)
    ema.update(model)
    trained = {n: p.detach().clone() for n, p in model.named_parameters()}
    ema.swap_in(model)
    for n, p in model.named_parameters():
        assert torch.allclose(p, init[n] + 1.0)
    ema.swap_out(model)
    for n, p in model.named_parameters():
        assert torch.equal(p, trained[n])


def test_shadow_is_not_the_parameter_storage():
    model = torch.nn.Linear(2, 2)
    ema = ModelEMA(model)
    with torch.no_grad():
        model.bias.zero_()
        ema.shadow["bias"].fill_(7.0)
    assert torch.equal(model.bias, torch.zeros(2))
