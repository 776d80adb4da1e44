"""Loss bookkeeping of a gradient-accumulation training loop.

Each micro-batch loss is backpropagated right away (scaled by 1/num_micro
batches); the tracker only keeps running *values* for logging, which are
saved with the checkpoint so that logged averages continue after a resume.
"""
import copy

import torch


class LossTracker:
    def __init__(self):
        self.totals = {}
        self.counts = {}

    def add(self, name, loss):
        if name not in self.totals:
            self.totals[name] = torch.zeros((), dtype=torch.float32)
            self.counts[name] = 0
        self.totals[name] = self.totals[name] + loss.float()
        self.counts[name] += 1

    def averages(self):
        return {k: self.totals[k].item() / self.counts[k] for k in self.totals}

    def reset(self):
        self.totals.clear()
        self.counts.clear()

    def state_dict(self):
        return copy.deepcopy({"totals": self.totals, "counts": self.counts})

    def load_state_dict(self, state):
        self.totals = dict(state["totals"])
        self.counts = dict(state["counts"])


def train_step(model, optimizer, micro_batches, tracker, loss_fn=torch.nn.functional.mse_loss):
    optimizer.zero_grad()
    for x, y in micro_batches:
        loss = loss_fn(model(x), y)
        (loss / len(micro_batches)).backward()
        tracker.add("lm loss", loss)
    optimizer.step()
