"""Tagged checkpoints with a ``latest`` pointer, in the style of DeepSpeed's engine.

<save_dir>/<tag>/model_states.pt holds the module, optimizer and LR scheduler
state plus any client state; <save_dir>/latest names the newest tag.
Optimizer and scheduler are optional on both sides: a checkpoint written for
inference has no optimizer state, and a run may resume without a scheduler.
"""
import os

import torch

LATEST = "latest"


def save_checkpoint(save_dir, tag, model, optimizer=None, lr_scheduler=None, client_state=None):
    path = os.path.join(save_dir, str(tag))
    os.makedirs(path, exist_ok=True)
    state = {
        "module": model.state_dict(),
        "optimizer": optimizer.state_dict() if optimizer is not None else None,
        "lr_scheduler": lr_scheduler.state_dict() if lr_scheduler is not None else None,
        "client_state": dict(client_state or {}),
    }
    torch.save(state, os.path.join(path, "model_states.pt"))
    with open(os.path.join(save_dir, LATEST), "w") as f:
        f.write(str(tag))
    return path


def _resolve_tag(load_dir, tag):
    if tag is not None:
        return str(tag)
    latest = os.path.join(load_dir, LATEST)
    if not os.path.isfile(latest):
        raise FileNotFoundError("no tag given and no '%s' file in %s" % (LATEST, load_dir))
    with open(latest) as f:
        return f.read().strip()


def _load_optimizer_state(optimizer, state):
    saved_groups = state["param_groups"]
    if len(saved_groups) != len(optimizer.param_groups):
        raise ValueError("checkpoint has %d param groups, optimizer has %d"
                         % (len(saved_groups), len(optimizer.param_groups)))
    optimizer.load_state_dict(state)


def load_checkpoint(load_dir, model, optimizer=None, lr_scheduler=None, tag=None,
                    load_optimizer_states=True):
    """Load a checkpoint; returns (path, client_state)."""
    path = os.path.join(load_dir, _resolve_tag(load_dir, tag))
    state = torch.load(os.path.join(path, "model_states.pt"))
    model.load_state_dict(state["module"])
    if optimizer is not None and load_optimizer_states:
        _load_optimizer_state(optimizer, state["optimizer"])
    if lr_scheduler is not None and state["lr_scheduler"] is not None:
        lr_scheduler.load_state_dict(state["lr_scheduler"])
    return path, state["client_state"]
