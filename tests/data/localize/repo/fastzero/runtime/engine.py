"""The training engine: wraps a model, its optimizer and the ZeRO partitioner."""
import torch

from fastzero.comm import wrappers as comm
from fastzero.runtime.optimizer import FusedAdam
from fastzero.runtime.zero.partition import ZeroOptimizer
from fastzero.utils.compat import clip_coef
from fastzero.utils.config import FastZeroConfig
from fastzero.utils.logging import logger, log_dist


class LossScaler:
    def __init__(self, init_scale=2.0 ** 16):
        self.scale = init_scale

    def __call__(self, loss):
        return loss * self.scale


class FastZeroEngine:
    def __init__(self, model, config, optimizer=None):
        self.module = model
        self.config = config if isinstance(config, FastZeroConfig) else FastZeroConfig(config)
        self.global_steps = 0
        self.micro_steps = 0
        self.loss_scaler = LossScaler() if self.config.dtype == torch.float16 else None
        self._scale_loss = self.loss_scaler
        if self.config.zero.stage > 0:
            self.optimizer = ZeroOptimizer(model.parameters(), stage=self.config.zero.stage)
        else:
            self.optimizer = optimizer or FusedAdam(model.parameters())
        self.timers = None
        if self.config.wall_clock_breakdown:
            from fastzero.utils.timers import Timers
            self.timers = Timers()
        log_dist(f"FastZeroEngine ready: zero stage {self.config.zero.stage}, "
                 f"world size {comm.get_world_size()}", ranks=[0])

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)

    __call__ = forward

    def backward(self, loss):
        if self.config.dtype != torch.float32:
            loss = self._scale_loss(loss)
        loss.backward()
        self.micro_steps += 1

    def is_gradient_accumulation_boundary(self):
        return self.micro_steps % self.config.gradient_accumulation_steps == 0

    def step(self):
        if not self.is_gradient_accumulation_boundary():
            return
        if isinstance(self.optimizer, ZeroOptimizer):
            self.optimizer.step()
        elif self.loss_scaler is not None:
            self.optimizer.step(closure=None, grad_scale=self._grad_scale())
        else:
            self.optimizer.step()
        self.optimizer.zero_grad()
        self.global_steps += 1
        if self.timers is not None:
            self.timers.log(["forward", "backward", "step"])

    def clip_gradients(self, max_norm=1.0):
        grads = [p.grad for p in self.module.parameters() if p.grad is not None]
        total_norm = torch.norm(torch.stack([g.norm() for g in grads])).item()
        coef = clip_coef(total_norm, max_norm)
        for g in grads:
            g.mul_(coef)
        return total_norm

    def _grad_scale(self):
        return self.loss_scaler.scale if self.loss_scaler else 1.0
