from .zero.reduce import Reducer
from . import comm as dist


class Engine:
    def __init__(self, model, cfg, *, reducer=None):
        self.reducer = reducer or Reducer(model)

    def train_batch(self, batch):
        loss = self.forward(batch)
        self.reducer.reduce(loss)
        dist.all_reduce(loss)
        return loss

    def forward(self, batch):
        return batch


def initialize(model, cfg):
    engine = Engine(model, cfg)
    return engine, Reducer.from_config("x")
