"""The CPU accelerator: device handles and memory figures for ranks without a GPU."""
import torch


class DeviceProps:
    def __init__(self, name):
        self.name = name
        self.total_memory = 0
        self.multi_processor_count = 1


class CPUAccelerator:
    def __init__(self, device_name="cpu", lazy=False):
        self._name = device_name
        if not lazy:
            self.device_props = DeviceProps(device_name)

    def device(self, index=None):
        return torch.device(self._name)

    def __getattr__(self, name):
        # Anything the accelerator does not define is a property of the device.
        return getattr(self.device_props, name)

    def memory_summary(self):
        return {"total": self.total_memory, "processors": self.multi_processor_count}
