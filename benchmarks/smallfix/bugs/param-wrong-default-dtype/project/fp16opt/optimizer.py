"""Wrap a torch optimizer so that it steps fp32 master weights of an fp16 model."""
import math

import torch

from fp16opt.flat import copy_master_to_model, create_flat_master, flat_grads


class FP16Optimizer:
    def __init__(self, params, optimizer_cls=torch.optim.SGD, static_loss_scale=128.0, **opt_kwargs):
        self.fp16_params = [p for p in params if p.requires_grad]
        self.master = create_flat_master(self.fp16_params)
        self.optimizer = optimizer_cls([self.master], **opt_kwargs)
        self.loss_scale = static_loss_scale
        self.overflow = False
        self.skipped_steps = 0

    def backward(self, loss):
        (loss.float() * self.loss_scale).backward()

    def _has_overflow(self):
        for p in self.fp16_params:
            if p.grad is not None:
                s = float(p.grad.float().sum())
                if math.isinf(s) or math.isnan(s):
                    return True
        return False

    def step(self):
        self.overflow = self._has_overflow()
        if self.overflow:
            self.skipped_steps += 1
            self.zero_grad()
            return False
        self.master.grad = flat_grads(self.fp16_params, torch.float32)
        self.master.grad.div_(self.loss_scale)
        self.optimizer.step()
        copy_master_to_model(self.master, self.fp16_params)
        self.zero_grad()
        return True

    def zero_grad(self):
        for p in self.fp16_params:
            p.grad = None
        self.master.grad = None
