"""A tiny top-1 MoE layer: a dense gate and a few local experts."""
import torch
from torch import nn


class MoE(nn.Module):
    def __init__(self, hidden, num_local_experts, group_name):
        super().__init__()
        self.gate = nn.Linear(hidden, num_local_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(num_local_experts))
        for param in self.experts.parameters():
            param.allreduce = False
            param.group_name = group_name

    def forward(self, x):
        choice = self.gate(x).argmax(dim=-1)
        out = torch.zeros_like(x)
        for idx, expert in enumerate(self.experts):
            mask = choice == idx
            if mask.any():
                out[mask] = expert(x[mask])
        return out + self.gate(x).sum(dim=-1, keepdim=True)
