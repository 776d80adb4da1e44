"""Data-parallel batch sampler for pretraining, in the style of Megatron-LM's
MegatronPretrainingSampler.

Samples are consumed in order in global batches of
``micro_batch_size * data_parallel_size``; data-parallel rank r takes the
r-th micro-batch of every global batch. ``consumed_samples`` lets a resumed
run continue exactly where the checkpoint stopped.
"""
import torch.distributed as dist


class PretrainingSampler:
    def __init__(self, total_samples, consumed_samples, micro_batch_size,
                 data_parallel_rank=None, data_parallel_size=None, drop_last=True):
        if data_parallel_size is None:
            data_parallel_size = dist.get_world_size() if dist.is_initialized() else 1
        if data_parallel_rank is None:
            data_parallel_rank = dist.get_rank() if dist.is_initialized() else 0
        if total_samples <= 0:
            raise ValueError("no samples to consume: %d" % total_samples)
        if consumed_samples >= total_samples:
            raise ValueError("no samples left to consume: %d, %d" % (consumed_samples, total_samples))
        if data_parallel_rank >= data_parallel_size:
            raise ValueError("data_parallel_rank should be smaller than data size: %d, %d"
                             % (data_parallel_rank, data_parallel_size))
        self.total_samples = total_samples
        self.consumed_samples = consumed_samples
        self.micro_batch_size = micro_batch_size
        self.dp_rank = data_parallel_rank
        self.dp_size = data_parallel_size
        self.global_batch = micro_batch_size * data_parallel_size
        self.drop_last = drop_last

    def __len__(self):
        return self.total_samples

    def _local_range(self):
        start = self.dp_rank * self.dp_size
        return start, start + self.micro_batch_size

    def __iter__(self):
        batch = []
        for idx in range(self.consumed_samples, self.total_samples):
            batch.append(idx)
            if len(batch) == self.global_batch:
                start, end = self._local_range()
                yield batch[start:end]
                batch = []
        if batch and not self.drop_last:
            start, end = self._local_range()
            if batch[start:end]:
                yield batch[start:end]
