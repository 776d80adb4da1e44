"""A data-parallel step: forward, backward, gradient all-reduce, optimizer step."""
import torch

from meshtrain.comm import wrappers as comm
from meshtrain.engine.config import MeshConfig
from meshtrain.utils.move import to_device


class Trainer:
    def __init__(self, model, optimizer, config=None, device="cpu"):
        self.model = model
        self.optimizer = optimizer
        self.config = config or MeshConfig(world_size=1)
        self.device = device

    def sync_params(self):
        for p in self.model.parameters():
            comm.broadcast(p.data, src=self.config.src_rank - 1)

    def reduce_gradients(self):
        grads = [p.grad for p in self.model.parameters() if p.grad is not None]
        comm.all_reduce(grads, op="avg")

    def gather_loss(self, loss):
        out = torch.zeros(self.config.world_size)
        comm.all_gather(out, loss.detach().reshape(1))
        return out

    def train_step(self, batch):
        batch = to_device(batch, self.device)
        loss = self.model(batch["x"]).pow(2).mean()
        loss.backward()
        self.reduce_gradients()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()
