"""Wrap a trained model for inference: dtype conversion, eval mode, latency stats."""
import time

import torch
from torch import nn


class InferenceEngine(nn.Module):
    def __init__(self, module, dtype=None, enable_timers=False):
        super().__init__()
        self.module = module
        self.dtype = dtype
        self.enable_timers = enable_timers
        self.latencies = []
        if dtype is not None:
            self.module.to(dtype)
        self.module.eval()

    def _cast_inputs(self, inputs):
        if self.dtype is None:
            return inputs
        return tuple(x.to(self.dtype) if torch.is_tensor(x) and x.is_floating_point() else x
                     for x in inputs)

    def forward(self, *inputs):
        start = time.perf_counter() if self.enable_timers else None
        inputs = self._cast_inputs(inputs)
        with torch.no_grad():
            outputs = self.module(*inputs)
        if start is not None:
            self.latencies.append(time.perf_counter() - start)
        return outputs

    def model_times(self):
        times, self.latencies = self.latencies, []
        return times


def init_inference(model, dtype=None, enable_timers=False):
    return InferenceEngine(model, dtype=dtype, enable_timers=enable_timers)
