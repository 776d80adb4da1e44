"""Wrap every N-th block of a model so its activations are recomputed in backward."""
from torch import nn
from torch.utils import checkpoint as torch_checkpoint


def checkpoint(function, *args):
    # non-reentrant checkpointing works with inputs that do not require grad
    # and with keyword-free blocks that return tuples
    return torch_checkpoint.checkpoint(function, *args, use_reentrant=False)


class CheckpointedBlock(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, *args):
        if not self.training:
            return self.block(*args)
        return checkpoint(self.block, *args)


def apply_activation_checkpointing(layers, every=1):
    """Return a new ModuleList with every ``every``-th layer checkpointed."""
    wrapped = []
    for idx, layer in enumerate(layers):
        wrapped.append(CheckpointedBlock(layer) if idx % every == 0 else layer)
    return nn.ModuleList(wrapped)
