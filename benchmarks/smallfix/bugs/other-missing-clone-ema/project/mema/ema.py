"""Exponential moving average of model weights, kept in fp32.

The shadow weights start as a copy of the model's weights and follow them
with ``shadow = decay * shadow + (1 - decay) * param`` after every
optimizer step. For evaluation, ``swap_in`` puts the EMA weights into the
model and ``swap_out`` restores the training weights.
"""
import torch


class ModelEMA:
    def __init__(self, model, decay=0.999, warmup_steps=0):
        self.decay = decay
        self.warmup_steps = warmup_steps
        self.num_updates = 0
        self.shadow = {n: p.detach().float() for n, p in model.named_parameters()
                       if p.requires_grad}
        self._backup = None

    def current_decay(self):
        if self.num_updates < self.warmup_steps:
            return min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        return self.decay

    @torch.no_grad()
    def update(self, model):
        decay = self.current_decay()
        self.num_updates += 1
        for name, p in model.named_parameters():
            if name in self.shadow:
                self.shadow[name].mul_(decay).add_(p.detach().float(), alpha=1 - decay)

    @torch.no_grad()
    def swap_in(self, model):
        self._backup = {}
        for name, p in model.named_parameters():
            if name in self.shadow:
                self._backup[name] = p.detach().clone()
                p.copy_(self.shadow[name].to(p.dtype))

    @torch.no_grad()
    def swap_out(self, model):
        for name, p in model.named_parameters():
            if name in self._backup:
                p.copy_(self._backup[name])
        self._backup = None

    def state_dict(self):
        return {"num_updates": self.num_updates,
                "shadow": {k: v.clone() for k, v in self.shadow.items()}}
