"""A minimal training engine: gradient accumulation, optional gradient
clipping and an optional LR scheduler, in the style of DeepSpeed's engine.

``gradient_clipping`` comes straight from the user's config and may be
None (key present but null), 0 (disabled) or a positive max norm.
"""
import torch


class TrainEngine:
    def __init__(self, model, optimizer, lr_scheduler=None, gradient_accumulation_steps=1,
                 gradient_clipping=None):
        self.module = model
        self.optimizer = optimizer
        self.lr_scheduler = lr_scheduler
        self.gas = gradient_accumulation_steps
        self.gradient_clipping = gradient_clipping
        self.micro_steps = 0
        self.global_steps = 0
        self.last_grad_norm = None

    def is_gradient_accumulation_boundary(self):
        return self.micro_steps % self.gas == 0

    def backward(self, loss):
        (loss / self.gas).backward()
        self.micro_steps += 1

    def step(self):
        if not self.is_gradient_accumulation_boundary():
            return False
        if self.gradient_clipping > 0:
            self.last_grad_norm = float(torch.nn.utils.clip_grad_norm_(
                self.module.parameters(), self.gradient_clipping))
        self.optimizer.step()
        self.optimizer.zero_grad()
        if self.lr_scheduler is not None:
            self.lr_scheduler.step()
        self.global_steps += 1
        return True
