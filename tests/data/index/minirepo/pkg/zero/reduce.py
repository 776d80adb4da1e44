import torch

from ..comm import all_reduce as ar
from .. import comm
import pkg.comm as c
from ..base import BaseEngine


class Reducer(BaseEngine):
    def __init__(self, model, bucket_size=25_000_000, *args, **kwargs):
        super().__init__(model, *args, **kwargs)
        self.bucket_size = bucket_size
        self.buckets = []

    @torch.no_grad()
    def reduce(self, grads, op="sum"):
        ar(grads)
        comm.broadcast(grads, 0)
        c.all_reduce(grads, async_op=True)
        self.step()
        self.flush(grads)
        total = 0
        for i, g in enumerate(grads):
            total += g
        try:
            self.flush(total)
        except RuntimeError as err:
            print(err)
        squares = [x * x for x in grads]

        def inner(y):
            return y + total

        return inner(squares)

    def flush(self, bucket, /, *, sync=True):
        self.pending = bucket

    async def wait(self, timeout: float = 1.0):
        return timeout
