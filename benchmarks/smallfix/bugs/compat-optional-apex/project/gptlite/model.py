"""Pre-LayerNorm GPT blocks. Uses apex's fused LayerNorm kernel."""
import torch
from apex.normalization import FusedLayerNorm as LayerNorm
from torch import nn


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = LayerNorm(cfg.hidden_size, eps=cfg.layernorm_epsilon)
        self.attn = nn.MultiheadAttention(cfg.hidden_size, cfg.num_heads, batch_first=True)
        self.ln_2 = LayerNorm(cfg.hidden_size, eps=cfg.layernorm_epsilon)
        self.mlp = nn.Sequential(nn.Linear(cfg.hidden_size, 4 * cfg.hidden_size), nn.GELU(),
                                 nn.Linear(4 * cfg.hidden_size, cfg.hidden_size))

    def forward(self, x, causal_mask):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=causal_mask, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.wpe = nn.Embedding(cfg.max_seq_len, cfg.hidden_size)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.num_layers))
        self.ln_f = LayerNorm(cfg.hidden_size, eps=cfg.layernorm_epsilon)

    def forward(self, input_ids):
        seq = input_ids.shape[1]
        pos = torch.arange(seq, device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(pos)
        mask = torch.triu(torch.ones(seq, seq, dtype=torch.bool, device=input_ids.device), diagonal=1)
        for block in self.blocks:
            x = block(x, mask)
        return self.ln_f(x) @ self.wte.weight.t()
