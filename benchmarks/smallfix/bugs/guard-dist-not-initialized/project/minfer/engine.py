"""A small inference wrapper in the style of DeepSpeed's ``init_inference``.

The engine casts the wrapped model to the requested dtype, puts it in eval
mode and runs forward passes without autograd. With ``tp_size > 1`` the
model is expected to be split across a tensor-parallel group that the
caller has already created with ``torch.distributed``; with ``tp_size == 1``
the engine must also work in a plain single-process script.
"""
import logging

import torch
import torch.distributed as dist

logger = logging.getLogger("minfer")

_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


class InferenceEngine(torch.nn.Module):
    def __init__(self, model, dtype="fp32", tp_size=1, max_tokens=1024):
        super().__init__()
        if dtype not in _DTYPES:
            raise ValueError("unsupported dtype %r, expected one of %s" % (dtype, sorted(_DTYPES)))
        if tp_size > 1 and not dist.is_initialized():
            raise RuntimeError("tp_size=%d needs torch.distributed to be initialized" % tp_size)
        self.module = model.to(_DTYPES[dtype]).eval()
        self.dtype = _DTYPES[dtype]
        self.tp_size = tp_size
        self.max_tokens = max_tokens
        self.rank = dist.get_rank()
        self._log("initialized inference engine: dtype=%s tp_size=%d" % (dtype, tp_size))

    def _log(self, msg):
        if self.rank == 0:
            logger.info(msg)

    def forward(self, input_ids, *args, **kwargs):
        if input_ids.shape[-1] > self.max_tokens:
            raise ValueError("input length %d exceeds max_tokens=%d"
                             % (input_ids.shape[-1], self.max_tokens))
        with torch.no_grad():
            return self.module(input_ids, *args, **kwargs)


def init_inference(model, **config):
    return InferenceEngine(model, **config)
