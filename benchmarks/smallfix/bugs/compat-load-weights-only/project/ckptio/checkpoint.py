"""Checkpoints hold tensors *and* plain Python objects (the training args,
client state), so they must be unpickled in full, not in weights-only mode
(the default since torch 2.6)."""
import os

import torch

LATEST = "latest"


class TrainingArgs:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


def _path(save_dir, tag):
    return os.path.join(save_dir, tag, "model_states.pt")


def save_checkpoint(save_dir, tag, model, optimizer, args, client_state=None):
    os.makedirs(os.path.join(save_dir, tag), exist_ok=True)
    state = {
        "module": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "args": args,
        "client_state": client_state or {},
    }
    torch.save(state, _path(save_dir, tag))
    with open(os.path.join(save_dir, LATEST), "w") as f:
        f.write(tag)


def load_checkpoint(save_dir, model, optimizer=None, tag=None):
    if tag is None:
        with open(os.path.join(save_dir, LATEST)) as f:
            tag = f.read().strip()
    state = torch.load(_path(save_dir, tag), map_location="cpu", weights_only=False)
    model.load_state_dict(state["module"])
    if optimizer is not None:
        optimizer.load_state_dict(state["optimizer"])
    return tag, state["args"], state["client_state"]
