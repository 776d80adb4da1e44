from meshtrain.accelerator.cpu import CPUAccelerator

__all__ = ["CPUAccelerator"]
