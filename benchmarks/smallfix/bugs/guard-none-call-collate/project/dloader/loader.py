"""Data loader for an engine with gradient accumulation, in the style of
DeepSpeed's DeepSpeedDataLoader + RepeatingLoader.

Yields micro-batches forever (the epoch counter advances and, with
``shuffle``, the order is reshuffled each epoch with a seed derived from
the epoch). ``collate_fn`` is optional, as in torch's DataLoader.
"""
import torch
from torch.utils.data import default_collate


class MicroBatchLoader:
    def __init__(self, dataset, micro_batch_size, collate_fn=None, shuffle=False, seed=0,
                 drop_last=True):
        if micro_batch_size < 1:
            raise ValueError("micro_batch_size must be >= 1")
        self.dataset = dataset
        self.micro_batch_size = micro_batch_size
        self.collate_fn = collate_fn
        self.shuffle = shuffle
        self.seed = seed
        self.drop_last = drop_last
        self.epoch = 0
        self._batches = iter(())
        self._started = False

    def _epoch_batches(self):
        n = len(self.dataset)
        if self.shuffle:
            order = torch.randperm(n, generator=torch.Generator().manual_seed(self.seed + self.epoch))
            order = order.tolist()
        else:
            order = list(range(n))
        stop = n - n % self.micro_batch_size if self.drop_last else n
        return iter([order[i:i + self.micro_batch_size] for i in range(0, stop, self.micro_batch_size)])

    def __iter__(self):
        return self

    def __next__(self):
        idx = next(self._batches, None)
        if idx is None:
            if self._started:
                self.epoch += 1
            self._started = True
            self._batches = self._epoch_batches()
            idx = next(self._batches, None)
            if idx is None:
                raise ValueError("dataset smaller than one micro-batch")
        return self.collate_fn([self.dataset[i] for i in idx])

    def sample_shapes(self):
        """Shapes of one default-collated micro-batch (for logging the input pipeline)."""
        batch = default_collate([self.dataset[i] for i in range(self.micro_batch_size)])
        return [tuple(t.shape) for t in batch] if isinstance(batch, (list, tuple)) \
            else tuple(batch.shape)
