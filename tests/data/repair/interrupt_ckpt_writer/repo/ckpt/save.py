"""Save the model, and the optimizer when there is one (inference-only jobs have none)."""
import os

import torch


def save_checkpoint(path, model, optimizer=None, step=0):
    state = {"step": step, "model": model.state_dict()}
    state["optimizer"] = optimizer.state_dict()
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)
    return path
