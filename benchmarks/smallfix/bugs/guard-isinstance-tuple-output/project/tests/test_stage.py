import torch

from pipeexec import StageExecutor


class TupleBlock(torch.nn.Module):
    """Megatron-style layer: returns (hidden, mask) and passes the mask through."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, hidden, mask):
        return self.linear(hidden) * mask.unsqueeze(-1), mask


def test_single_tensor_stage_forward_backward():
    torch.manual_seed(0)
    stage = StageExecutor(torch.nn.Linear(3, 2))
    x = torch.randn(4, 3)
    out = stage.forward_step(0, x)
    assert not out.requires_grad and stage.in_flight() == [0]
    (gx,) = stage.backward_step(0, torch.ones(4, 2))
    assert gx.shape == (4, 3)
    assert stage.in_flight() == []


def test_integer_inputs_get_no_grad():
    stage = StageExecutor(torch.nn.Embedding(10, 3))
    stage.forward_step(1, torch.tensor([[1, 2]]))
    (g,) = stage.backward_step(1, torch.ones(1, 2, 3))
    assert g is None


def test_tuple_output_stage():
    torch.manual_seed(0)
    stage = StageExecutor(TupleBlock())
    hidden, mask = torch.randn(2, 3, 4), torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    sent = stage.forward_step(0, hidden, mask)
    assert len(sent) == 2 and not sent[0].requires_grad
    grads = stage.backward_step(0, torch.ones(2, 3, 4), torch.zeros(2, 3))
    assert grads[0].shape == hidden.shape
