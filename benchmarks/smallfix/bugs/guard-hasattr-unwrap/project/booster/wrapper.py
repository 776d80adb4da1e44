import torch


class ModelWrapper(torch.nn.Module):
    """What a plugin's ``configure()`` returns: the user's module behind a wrapper
    (DDP, a ZeRO module, an fp16 cast...). ``unwrap()`` gives the user's module back."""

    def __init__(self, module, cast_dtype=None):
        super().__init__()
        self.module = module
        self.cast_dtype = cast_dtype

    def unwrap(self):
        module = self.module
        while isinstance(module, ModelWrapper):
            module = module.module
        return module

    def forward(self, *args, **kwargs):
        if self.cast_dtype is not None:
            args = [a.to(self.cast_dtype) if torch.is_tensor(a) else a for a in args]
        return self.module(*args, **kwargs)
