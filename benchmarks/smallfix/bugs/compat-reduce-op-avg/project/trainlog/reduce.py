"""Reduce per-rank scalars so that every rank logs the same numbers."""
import torch
import torch.distributed as dist


def average_losses_across_data_parallel_group(losses, group=None):
    """Mean of each loss over the data-parallel group, as one 1-D tensor."""
    averaged = torch.cat([loss.clone().detach().float().view(1) for loss in losses])
    if dist.get_world_size(group=group) == 1:
        return averaged
    dist.all_reduce(averaged, op=dist.ReduceOp.AVG, group=group)
    return averaged


def max_across_ranks(values, group=None):
    """Element-wise maximum, e.g. of step times, over the group."""
    reduced = torch.tensor(values, dtype=torch.float64)
    if dist.get_world_size(group=group) > 1:
        dist.all_reduce(reduced, op=dist.ReduceOp.MAX, group=group)
    return reduced.tolist()


class LossLogger:
    def __init__(self, names, group=None):
        self.names = list(names)
        self.group = group
        self.history = []

    def log(self, iteration, losses):
        averaged = average_losses_across_data_parallel_group(losses, group=self.group)
        record = {"iteration": iteration}
        record.update({name: value for name, value in zip(self.names, averaged.tolist())})
        self.history.append(record)
        return record
