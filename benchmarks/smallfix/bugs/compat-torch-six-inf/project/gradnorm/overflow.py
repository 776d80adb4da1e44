"""Detect inf/nan gradients before an optimizer step (dynamic loss scaling)."""
import math

import torch


def has_inf_or_nan(tensor):
    s = float(tensor.float().sum())
    return math.isinf(s) or math.isnan(s)


def check_overflow(parameters):
    return any(p.grad is not None and has_inf_or_nan(p.grad) for p in parameters)


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 16, scale_factor=2.0, scale_window=1000, min_scale=1.0):
        self.cur_scale = init_scale
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.min_scale = min_scale
        self.last_overflow_iter = -1
        self.cur_iter = 0

    def update_scale(self, overflow):
        if overflow:
            self.cur_scale = max(self.cur_scale / self.scale_factor, self.min_scale)
            self.last_overflow_iter = self.cur_iter
        elif (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
            self.cur_scale *= self.scale_factor
        self.cur_iter += 1

    def scale(self, loss):
        return loss * torch.tensor(self.cur_scale, dtype=loss.dtype)
