import torch

from gptlite.config import GPTConfig
from gptlite.model import GPT


def test_forward_shape():
    torch.manual_seed(0)
    model = GPT(GPTConfig())
    logits = model(torch.randint(0, 64, (2, 7)))
    assert logits.shape == (2, 7, 64)


def test_causal():
    torch.manual_seed(0)
    model = GPT(GPTConfig()).eval()
    ids = torch.randint(0, 64, (1, 6))
    full = model(ids)
    prefix = model(ids[:, :3])
    assert torch.allclose(full[:, :3], prefix, atol=1e-5)
