"""Run one optimizer step over gradient_accumulation_steps micro-batches."""
import torch

from batchcfg.config import BatchConfig


class Engine:
    def __init__(self, model, optimizer, cfg, dp_world_size=1):
        self.model = model
        self.optimizer = optimizer
        self.config = BatchConfig(cfg, dp_world_size)
        self.global_steps = 0
        self.micro_steps = 0

    def train_batch(self, data_iter, loss_fn):
        gas = self.config.gradient_accumulation_steps
        total = 0.0
        for _ in range(gas):
            inputs, labels = next(data_iter)
            loss = loss_fn(self.model(inputs), labels) / gas
            loss.backward()
            total += loss.item()
            self.micro_steps += 1
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.global_steps += 1
        return total
