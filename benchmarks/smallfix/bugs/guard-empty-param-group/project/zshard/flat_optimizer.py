"""Mixed-precision optimizer wrapper with flat fp32 master weights per param group
(the layout ZeRO stage 1/2 partitions). Model parameters may be fp16/bf16;
the wrapped optimizer only ever sees one flat fp32 tensor per group.
"""
import torch


def get_param_groups(model, weight_decay):
    """Megatron-style split: no weight decay for biases and norm weights."""
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        (no_decay if name.endswith("bias") or p.dim() == 1 else decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay},
            {"params": no_decay, "weight_decay": 0.0}]


class FlatMasterOptimizer:
    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.groups = []  # (param group, model params, flat fp32 master)
        for group in optimizer.param_groups:
            params = [p for p in group["params"] if p.requires_grad]
            flat = torch.cat([p.detach().reshape(-1).float() for p in params])
            flat.requires_grad_(True)
            group["params"] = [flat]
            self.groups.append((group, params, flat))

    @property
    def param_groups(self):
        return self.optimizer.param_groups

    def zero_grad(self):
        for _, params, flat in self.groups:
            flat.grad = None
            for p in params:
                p.grad = None

    def step(self):
        for _, params, flat in self.groups:
            grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in params]
            flat.grad = torch.cat([g.reshape(-1).float() for g in grads])
        self.optimizer.step()
        for _, params, flat in self.groups:
            offset = 0
            for p in params:
                n = p.numel()
                p.data.copy_(flat.data[offset:offset + n].view_as(p))
                offset += n

    def state_dict(self):
        return self.optimizer.state_dict()
