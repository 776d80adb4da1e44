"""Train TinyGPT on random tokens with fastzero.

Single process:   python examples/train.py --zero-stage 1
Several ranks:    python -m fastzero.launcher.runner --nproc 2 examples/train.py --zero-stage 2
                  torchrun --nproc_per_node 2 examples/train.py --zero-stage 2
"""
import argparse
import json
import os

import torch

from fastzero.comm import wrappers as comm
from fastzero.model.gpt import TinyGPT
from fastzero.runtime.engine import FastZeroEngine
from fastzero.utils.logging import logger


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--config", default=None, help="JSON config; overrides the flags below")
    p.add_argument("--zero-stage", type=int, default=1)
    p.add_argument("--precision", default="fp32")
    p.add_argument("--vocab", type=int, default=64)
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--micro-batch", type=int, default=2)
    p.add_argument("--grad-accum", type=int, default=None)
    p.add_argument("--freeze-embeddings", action="store_true")
    p.add_argument("--save-dir", default=None)
    p.add_argument("--load-dir", default=None)
    p.add_argument("--tag", default="global_step3")
    p.add_argument("--lr-schedule", action="store_true")
    p.add_argument("--timers", action="store_true")
    p.add_argument("--client-state", action="store_true")
    return p.parse_args()


def build_config(args, world_size):
    if args.config:
        with open(args.config) as f:
            return json.load(f)
    accum = args.grad_accum or 1
    return {
        "train_batch_size": args.micro_batch * accum * world_size,
        "train_micro_batch_size_per_gpu": args.micro_batch,
        "gradient_accumulation_steps": args.grad_accum,
        "precision": args.precision,
        "zero_optimization": {"stage": args.zero_stage},
        "wall_clock_breakdown": args.timers,
    }


def main():
    args = get_args()
    if "RANK" in os.environ:
        comm.init_distributed("gloo")
    world_size = comm.get_world_size()
    torch.manual_seed(1234)
    model = TinyGPT(vocab=args.vocab, hidden=args.hidden)
    if args.freeze_embeddings:
        model.embed.weight.requires_grad_(False)
    engine = FastZeroEngine(model, build_config(args, world_size))
    if args.lr_schedule:
        from fastzero.runtime.lr_schedules import WarmupCosineLR
        WarmupCosineLR(engine.optimizer, warmup_steps=10, total_steps=100)
    if args.load_dir:
        from fastzero.checkpoint.saver import load_checkpoint
        load_checkpoint(engine, args.load_dir, args.tag)
    for step in range(args.steps):
        tokens = torch.randint(0, args.vocab, (args.micro_batch, 8))
        logits = engine(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, args.vocab),
                                                 tokens[:, 1:].reshape(-1))
        engine.backward(loss)
        engine.step()
        logger.info(f"step {step} loss {loss.item():.4f}")
    if args.save_dir:
        from fastzero.checkpoint.saver import save_checkpoint
        client_state = {"args": vars(args)} if args.client_state else None
        save_checkpoint(engine, args.save_dir, args.tag, client_state=client_state)
    if world_size > 1:
        final = torch.tensor([loss.item()])
        comm.all_reduce(final)
        logger.info(f"final loss (avg over ranks) {final.item() / world_size:.4f}")


if __name__ == "__main__":
    main()
