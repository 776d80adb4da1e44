import pytest
import torch

from minfer import InferenceEngine, init_inference


class TinyLM(torch.nn.Module):
    def __init__(self, vocab=32, hidden=8):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.head = torch.nn.Linear(hidden, vocab)

    def forward(self, input_ids):
        return self.head(self.embed(input_ids))


def test_rejects_unknown_dtype():
    with pytest.raises(ValueError, match="unsupported dtype"):
        InferenceEngine(TinyLM(), dtype="int4")


def test_tensor_parallel_requires_process_group():
    with pytest.raises(RuntimeError, match="tp_size=2"):
        InferenceEngine(TinyLM(), tp_size=2)


def test_single_process_inference():
    torch.manual_seed(0)
    engine = init_inference(TinyLM(), dtype="fp32")
    logits = engine(torch.tensor([[1, 2, 3]]))
    assert logits.shape == (1, 3, 32)
    assert not logits.requires_grad
    assert not engine.module.training
