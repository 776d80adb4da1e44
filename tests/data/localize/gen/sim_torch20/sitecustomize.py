# Simulates torch>=2.0, where torch._six no longer exists (used only to produce corpus logs).
import sys
import torch
import torch.distributed  # noqa: F401
import torch.nn.functional  # noqa: F401
import torch.optim  # noqa: F401
sys.modules.pop("torch._six", None)
if hasattr(torch, "_six"):
    del torch._six
torch.__path__ = []
