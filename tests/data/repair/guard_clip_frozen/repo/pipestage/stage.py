"""The first stage of a pipeline-parallel language model: embedding and a few MLP blocks."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)
        self.fc1 = nn.Linear(hidden, 4 * hidden)
        self.fc2 = nn.Linear(4 * hidden, hidden)

    def forward(self, x):
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.norm(x))))


class PipelineStage(nn.Module):
    """Stage 0 of the pipeline: it owns the word embedding (often frozen when fine-tuning)."""

    def __init__(self, vocab, hidden, layers):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.blocks = nn.ModuleList(Block(hidden) for _ in range(layers))

    def forward(self, tokens):
        x = self.embedding(tokens)
        for block in self.blocks:
            x = block(x)
        return x
