"""Training engine driven by a config dict."""
import torch

from trainkit.clip import clip_grad_norm_


class TrainConfig:
    def __init__(self, cfg):
        self.lr = float(cfg.get("lr", 1e-3))
        self.gradient_clipping = float(cfg.get("gradient_clipping", 0.0))
        # "inf" clips by the largest absolute gradient entry
        self.clip_norm_type = float(cfg.get("gradient_clipping_norm_type", 2.0))


class Engine:
    def __init__(self, model, cfg):
        self.model = model
        self.config = TrainConfig(cfg)
        self.optimizer = torch.optim.SGD(model.parameters(), lr=self.config.lr)
        self.global_steps = 0
        self.last_grad_norm = None

    def backward(self, loss):
        loss.backward()

    def step(self):
        if self.config.gradient_clipping > 0.0:
            self.last_grad_norm = clip_grad_norm_(self.model.parameters(),
                                                  max_norm=self.config.gradient_clipping,
                                                  norm_type=self.config.clip_norm_type)
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.global_steps += 1
