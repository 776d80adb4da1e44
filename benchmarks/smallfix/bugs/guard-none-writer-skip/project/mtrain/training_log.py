"""Per-iteration training log in the style of Megatron-LM's ``training_log``.

Losses are averaged over the data-parallel group; a scalar writer (a small
stand-in for TensorBoard's SummaryWriter) exists only on the last rank,
which is also the rank that prints the log line.
"""
import json
import os

import torch
import torch.distributed as dist

_WRITER = None


class ScalarWriter:
    """Appends {"tag", "value", "step"} records to <log_dir>/scalars.jsonl."""

    def __init__(self, log_dir):
        os.makedirs(log_dir, exist_ok=True)
        self.path = os.path.join(log_dir, "scalars.jsonl")

    def add_scalar(self, tag, value, step):
        with open(self.path, "a") as f:
            f.write(json.dumps({"tag": tag, "value": float(value), "step": step}) + "\n")

    def read(self):
        with open(self.path) as f:
            return [json.loads(line) for line in f]


def setup_writer(log_dir):
    """Create the writer on the last rank only (where the last pipeline stage lives)."""
    global _WRITER
    _WRITER = None
    if log_dir and dist.get_rank() == dist.get_world_size() - 1:
        _WRITER = ScalarWriter(log_dir)
    return _WRITER


def get_writer():
    return _WRITER


def average_losses(loss_dict):
    names = sorted(loss_dict)
    flat = torch.tensor([float(loss_dict[n]) for n in names], dtype=torch.float64)
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    return dict(zip(names, flat.tolist()))


def training_log(loss_dict, learning_rate, iteration, log_interval=1):
    """Average and record the losses; returns the log line on the last rank."""
    averaged = average_losses(loss_dict)
    scalars = dict(averaged, **{"learning-rate": learning_rate})
    writer = get_writer()
    for tag, value in sorted(scalars.items()):
        writer.add_scalar(tag, value, iteration)
    if iteration % log_interval != 0 or dist.get_rank() != dist.get_world_size() - 1:
        return None
    parts = ["iteration %8d" % iteration, "learning rate: %.3e" % learning_rate]
    parts += ["%s: %.6e" % (k, v) for k, v in sorted(averaged.items())]
    line = " | ".join(parts)
    print(line, flush=True)
    return line
