"""Sharded optimizers: each rank keeps the state of its own slice of the parameters."""
import torch


class ShardedAdam:
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, world_size=1, rank=0):
        self.params = list(params)
        self.lr = lr
        self.betas = betas
        self.eps = eps
        self.world_size = world_size
        self.rank = rank
        self.step_count = 0

    def _init_state(self):
        self.state = {
            i: {"exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)}
            for i, p in enumerate(self.params)
            if i % self.world_size == self.rank
        }

    def step(self):
        if self.step_count == 0:
            self._init_state()
        self.step_count += 1
        b1, b2 = self.betas
        for i, s in self.state.items():
            p = self.params[i]
            if p.grad is None:
                continue
            s["exp_avg"].mul_(b1).add_(p.grad, alpha=1 - b1)
            s["exp_avg_sq"].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
            p.data.addcdiv_(s["exp_avg"], s["exp_avg_sq"].sqrt().add_(self.eps), value=-self.lr)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


class GradBuckets:
    """Gradients packed into flat buckets of at most `bucket_size` elements."""

    def __init__(self, params, bucket_size=2**20):
        self.bucket_size = bucket_size
        self.buckets = [[]]
        filled = 0
        for p in params:
            if filled + p.numel() > bucket_size and self.buckets[-1]:
                self.buckets.append([])
                filled = 0
            self.buckets[-1].append(p)
            filled += p.numel()

    def __iter__(self):
        return iter(self.buckets)
