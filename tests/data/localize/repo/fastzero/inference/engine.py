"""A small inference engine with a KV cache and optional fused attention."""
import torch
import torch.nn.functional as F

from fastzero.utils.logging import logger


class InferenceEngine:
    def __init__(self, model, max_len=64, heads=2, dtype=torch.float32, device="cpu",
                 use_flash=False, kv_cache=False):
        self.model = model.eval()
        self.max_len = max_len
        self.heads = heads
        self.dtype = dtype
        self.device = device
        self.use_flash = use_flash
        self.kv_cache = kv_cache
        self.cache = None
        self.cache_len = 0
        self._post_hook = None
        logger.info(f"InferenceEngine: dtype={dtype} device={device} flash={use_flash}")

    def allocate_kv_cache(self, batch, layers):
        head_dim = self.model.hidden // self.heads
        shape = (batch, self.heads, self.max_len, head_dim)
        self.cache = []
        for _ in range(layers):
            k = torch.zeros(shape, dtype=self.dtype, device=self.device)
            v = torch.zeros(shape, dtype=self.dtype, device=self.device)
            self.cache.append((k, v))

    def _split_heads(self, h):
        b, t, d = h.shape
        return h.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def attention(self, q, k, v, layer_idx):
        if self.kv_cache:
            past_k, past_v = self.cache[layer_idx]
            k = torch.cat([past_k[:, :, :self.cache_len], k], dim=2)
            v = torch.cat([past_v[:, :, :self.cache_len], v], dim=2)
        if self.use_flash:
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
        scores = q @ k.transpose(-1, -2) / (q.shape[-1] ** 0.5)
        return scores.softmax(-1) @ v

    def prefill(self, input_ids):
        h = self.model.embed(input_ids)
        for layer_idx, block in enumerate(self.model.blocks):
            q = k = v = self._split_heads(block.ln(h))
            a = self.attention(q, k, v, layer_idx)
            h = h + a.transpose(1, 2).reshape(h.shape)
        return self.model.head(h)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=8, **model_kwargs):
        apply_hooks = model_kwargs.pop("apply_hooks", True)
        input_ids = input_ids.to(self.device)
        for _ in range(max_new_tokens):
            if self.use_flash or self.kv_cache:
                logits = self.prefill(input_ids)
            else:
                logits = self.model(input_ids, **model_kwargs)
            if apply_hooks:
                logits = self._post_hook(logits)
            next_id = logits[:, -1].argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_id], dim=1)
        return input_ids

    def register_post_hook(self, fn):
        self._post_hook = fn
