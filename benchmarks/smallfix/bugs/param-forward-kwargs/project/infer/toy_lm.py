"""A one-layer causal LM, just enough to exercise the engine."""
import torch
from torch import nn


class ToyLM(nn.Module):
    def __init__(self, vocab=32, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, input_ids, attention_mask=None, position_offset=0):
        h = self.embed(input_ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / h.shape[-1] ** 0.5
        seq = input_ids.shape[-1]
        causal = torch.ones(seq, seq, dtype=torch.bool).tril()
        if attention_mask is not None:
            causal = causal & attention_mask[:, None, :].bool()
        scores = scores.masked_fill(~causal, float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.head(out + h)
