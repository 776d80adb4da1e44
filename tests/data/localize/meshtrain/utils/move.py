"""Moving nested batches (dicts, lists, tuples of tensors) to a device."""
import torch


def to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, dict):
        return {k: to_device(v, device) for k, v in obj.items()}
    return _move_sequence(obj, device)


def _move_sequence(seq, device):
    moved = [to_device(x, device) for x in seq]
    return type(seq)(moved)
