"""Launcher settings, from command-line style arguments or the scheduler's environment."""
import os
from dataclasses import dataclass


@dataclass
class LaunchConfig:
    nnodes: int = 1
    node_rank: int = 0
    nproc_per_node: int = 1
    master_addr: str = "127.0.0.1"
    master_port: int = 29500

    @property
    def world_size(self):
        return self.nnodes * self.nproc_per_node

    @classmethod
    def from_env(cls, env=None):
        """Read the settings a job scheduler exports (NNODES, NODE_RANK, NPROC_PER_NODE, ...)."""
        env = os.environ if env is None else env
        return cls(
            nnodes=int(env.get("NNODES", 1)),
            node_rank=int(env.get("NODE_RANK", 0)),
            nproc_per_node=env.get("NPROC_PER_NODE", 1),
            master_addr=env.get("MASTER_ADDR", "127.0.0.1"),
            master_port=int(env.get("MASTER_PORT", 29500)),
        )

    def validate(self):
        if not 0 <= self.node_rank < self.nnodes:
            raise ValueError("node_rank %d out of range for %d nodes" % (self.node_rank, self.nnodes))
        if self.nproc_per_node < 1:
            raise ValueError("nproc_per_node must be >= 1")
