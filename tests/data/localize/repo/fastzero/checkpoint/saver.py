"""Saving and loading engine checkpoints (one file per rank plus a model file)."""
import os

import torch
import torch.distributed as dist

from fastzero.comm import wrappers as comm
from fastzero.runtime.zero.partition import FlatPartitioner, flatten
from fastzero.utils.logging import logger


class CheckpointError(RuntimeError):
    pass


def _ckpt_path(save_dir, tag, rank):
    return os.path.join(save_dir, str(tag), f"zero_pp_rank_{rank}_mp_rank_00_optim_states.pt")


def _model_path(save_dir, tag):
    return os.path.join(save_dir, str(tag), "mp_rank_00_model_states.pt")


def save_checkpoint(engine, save_dir, tag, client_state=None):
    rank = comm.get_rank()
    os.makedirs(os.path.join(save_dir, str(tag)), exist_ok=True)
    if rank == 0:
        state = {"model": engine.module.state_dict(), "global_steps": engine.global_steps}
        for key, value in client_state.items():
            state[key] = value
        torch.save(state, _model_path(save_dir, tag))
        if dist.is_initialized():
            dist.barrier()
    if hasattr(engine.optimizer, "fp32_partition"):
        torch.save({"fp32_partition": engine.optimizer.fp32_partition},
                   _ckpt_path(save_dir, tag, rank))
    logger.info(f"[Rank {rank}] saved checkpoint {tag} to {save_dir}")


def load_checkpoint(engine, load_dir, tag):
    path = _model_path(load_dir, tag)
    try:
        state = torch.load(path, map_location="cpu")
    except FileNotFoundError as e:
        raise CheckpointError(f"no checkpoint '{tag}' under {load_dir}") from e
    engine.module.load_state_dict(state["module"])
    engine.global_steps = state["global_steps"]
    return state


def consolidate_zero(engine, world_size):
    """Rebuild the full fp32 flat buffer on one process from the model weights."""
    flat = flatten([p.detach().float() for p in engine.module.parameters()])
    parts = []
    for rank in range(world_size):
        parts.append(FlatPartitioner().partition(flat, rank))
    return torch.cat(parts)[:flat.numel()]
