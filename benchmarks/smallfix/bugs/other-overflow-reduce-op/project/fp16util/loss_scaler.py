"""Dynamic loss scaling for fp16 training, in the style of DeepSpeed/Megatron.

If any gradient on *any* rank is inf/NaN the step must be skipped on every
rank and the scale lowered; otherwise ranks would apply different updates
and the model replicas would drift apart. After ``scale_window`` good steps
the scale is raised again.
"""
import torch
import torch.distributed as dist


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 16, scale_factor=2.0, scale_window=1000,
                 min_scale=1.0, group=None):
        self.cur_scale = init_scale
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.min_scale = min_scale
        self.group = group
        self.good_steps = 0

    def scale_loss(self, loss):
        return loss * self.cur_scale

    @staticmethod
    def _local_overflow(params):
        for p in params:
            if p.grad is not None and not torch.isfinite(p.grad).all():
                return True
        return False

    def has_overflow(self, params):
        """True on every rank if any rank has a non-finite gradient."""
        flag = torch.tensor([1.0 if self._local_overflow(params) else 0.0])
        if dist.is_initialized():
            dist.all_reduce(flag, op=dist.ReduceOp.MIN, group=self.group)
        return bool(flag.item())

    def update_scale(self, overflow):
        if overflow:
            self.cur_scale = max(self.cur_scale / self.scale_factor, self.min_scale)
            self.good_steps = 0
        else:
            self.good_steps += 1
            if self.good_steps % self.scale_window == 0:
                self.cur_scale *= self.scale_factor

    def unscale_and_step(self, optimizer, params):
        """Returns True if the optimizer stepped, False if the step was skipped."""
        overflow = self.has_overflow(params)
        self.update_scale(overflow)
        if overflow:
            optimizer.zero_grad()
            return False
        for p in params:
            if p.grad is not None:
                p.grad.div_(self.cur_scale)
        optimizer.step()
        return True
