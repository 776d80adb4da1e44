"""Vocabulary-parallel embedding, in the style of Megatron-LM's tensor-parallel layers.

The embedding table is split along the vocabulary across the tensor-parallel
group: rank r holds rows [r * V/p, (r + 1) * V/p). Every rank looks up the
tokens it owns, zeroes the rows of tokens owned by other ranks, and an
all-reduce sums the partial results into the full embedding output.
"""
import torch
import torch.distributed as dist
import torch.nn.functional as F


def divide(numerator, denominator):
    if numerator % denominator != 0:
        raise ValueError("%d is not divisible by %d" % (numerator, denominator))
    return numerator // denominator


class VocabParallelEmbedding(torch.nn.Module):
    def __init__(self, num_embeddings, embedding_dim, group=None, seed=1234):
        super().__init__()
        initialized = dist.is_available() and dist.is_initialized()
        self.group = group
        self.tp_size = dist.get_world_size(group) if initialized else 1
        self.tp_rank = dist.get_rank(group) if initialized else 0
        per_rank = divide(num_embeddings, self.tp_size)
        self.vocab_start_index = self.tp_rank * per_rank
        self.vocab_end_index = self.vocab_start_index + per_rank
        # Initialise the full table with the same seed everywhere and keep our slice,
        # so results do not depend on the tensor-parallel size.
        gen = torch.Generator().manual_seed(seed)
        master = torch.randn(num_embeddings, embedding_dim, generator=gen)
        self.weight = torch.nn.Parameter(
            master[self.vocab_start_index:self.vocab_end_index].clone())

    def forward(self, input_):
        if self.tp_rank > 0:
            input_mask = (input_ < self.vocab_start_index) | (input_ >= self.vocab_end_index)
            masked_input = input_.clone() - self.vocab_start_index
            masked_input[input_mask] = 0
        else:
            masked_input = input_
        output = F.embedding(masked_input, self.weight)
        if self.tp_size > 1:
            output[input_mask, :] = 0.0
            dist.all_reduce(output, group=self.group)
        return output
