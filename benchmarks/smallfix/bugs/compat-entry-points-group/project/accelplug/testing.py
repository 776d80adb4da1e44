"""A fake accelerator plugin used by the tests."""
import torch

from accelplug.accelerator import Accelerator


class FakeNPUAccelerator(Accelerator):
    name = "fake_npu"
    communication_backend = "gloo"

    def is_available(self):
        return True

    def device(self, index=0):
        return torch.device("cpu")
