import torch

from pipeexec import StageExecutor


class Split(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2)
        self.b = torch.nn.Linear(2, 3)

    def forward(self, x):
        return self.a(x), self.b(x)


def test_tuple_outputs_are_detached_values_and_grads_flow_from_both():
    torch.manual_seed(3)
    mod = Split()
    stage = StageExecutor(mod)
    x = torch.randn(5, 2)
    out_a, out_b = stage.forward_step(7, x)
    assert isinstance(stage.forward_step(8, x), tuple)
    ref_a, ref_b = mod(x)
    assert torch.allclose(out_a, ref_a) and torch.allclose(out_b, ref_b)
    assert not out_a.requires_grad and not out_b.requires_grad
    (gx,) = stage.backward_step(7, torch.ones(5, 2), torch.ones(5, 3))
    xr = x.clone().requires_grad_()
    a, b = mod(xr)
    (a.sum() + b.sum()).backward()
    assert torch.allclose(gx, xr.grad)
    assert stage.in_flight() == [8]


def test_single_tensor_output_is_still_a_tensor():
    stage = StageExecutor(torch.nn.Linear(2, 2))
    out = stage.forward_step(0, torch.randn(1, 2))
    assert isinstance(out, torch.Tensor)
