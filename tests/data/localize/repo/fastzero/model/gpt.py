"""A tiny GPT used by the examples and the tests."""
import torch
import torch.nn as nn

from fastzero.model.parallel_layers import ParallelMLP


class Block(nn.Module):
    def __init__(self, hidden, tp_size=1, dtype=torch.float32):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)
        self.mlp = ParallelMLP(hidden, tp_size=tp_size, dtype=dtype)

    def forward(self, x):
        return x + self.mlp(self.ln(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab=64, hidden=16, layers=2, tp_size=1, dtype=torch.float32):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.blocks = nn.ModuleList(Block(hidden, tp_size, dtype) for _ in range(layers))
        self.head = nn.Linear(hidden, vocab, bias=False)
        self.hidden = hidden

    def forward(self, input_ids):
        x = self.embed(input_ids)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
