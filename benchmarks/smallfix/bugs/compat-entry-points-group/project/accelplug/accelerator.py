import torch


class Accelerator:
    name = None
    communication_backend = None

    def is_available(self):
        raise NotImplementedError

    def device(self, index=0):
        raise NotImplementedError


class CPUAccelerator(Accelerator):
    name = "cpu"
    communication_backend = "gloo"

    def is_available(self):
        return True

    def device(self, index=0):
        return torch.device("cpu")


class CUDAAccelerator(Accelerator):
    name = "cuda"
    communication_backend = "nccl"

    def is_available(self):
        return torch.cuda.is_available()

    def device(self, index=0):
        return torch.device("cuda", index)
