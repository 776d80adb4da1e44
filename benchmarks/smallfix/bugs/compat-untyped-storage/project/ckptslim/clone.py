"""torch.save writes a tensor's whole storage, not just the viewed elements.

Parameters that are views into a flat buffer (ZeRO, fused optimizers) would
each drag the complete buffer into the checkpoint, so such tensors are cloned
into compact storage before saving.
"""
import torch


def storage_nbytes(tensor):
    return tensor.untyped_storage().nbytes()


def is_compact(tensor):
    return storage_nbytes(tensor) == tensor.numel() * tensor.element_size()


def clone_tensors_for_torch_save(item, device=torch.device("cpu")):
    """Return a copy of ``item`` (nested dicts/lists/tuples) whose tensors own compact storage."""
    if torch.is_tensor(item):
        if is_compact(item) and item.device == device:
            return item.detach()
        return item.detach().clone().to(device)
    if isinstance(item, dict):
        return type(item)({k: clone_tensors_for_torch_save(v, device) for k, v in item.items()})
    if isinstance(item, (list, tuple)):
        return type(item)(clone_tensors_for_torch_save(v, device) for v in item)
    return item
