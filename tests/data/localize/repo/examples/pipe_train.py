"""Run a toy pipeline (one Linear per stage) with torch.multiprocessing.spawn.

    python examples/pipe_train.py --stages 2 --micro-batches 4
"""
import argparse
import os

import torch
import torch.multiprocessing as mp

from fastzero.comm import wrappers as comm
from fastzero.runtime.pipe.schedule import PipelineExecutor, TrainSchedule
from fastzero.utils.logging import log_dist


def worker(rank, args):
    os.environ.update(RANK=str(rank), WORLD_SIZE=str(args.stages),
                      MASTER_ADDR="127.0.0.1", MASTER_PORT=str(args.port))
    comm.init_distributed("gloo")
    torch.manual_seed(rank)
    layer = torch.nn.Linear(args.hidden, args.hidden)
    schedule = TrainSchedule(args.micro_batches, args.stages, rank)
    executor = PipelineExecutor(layer, schedule,
                                prev_rank=rank - 1 if rank > 0 else None,
                                next_rank=rank + 1 if rank < args.stages - 1 else None)
    micro_batches = [torch.randn(2, args.hidden) for _ in range(args.micro_batches)]
    with torch.no_grad():
        executor.run(micro_batches)
    log_dist(f"stage {rank} finished {len(executor.outputs)} micro-batches", ranks=[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stages", type=int, default=2)
    parser.add_argument("--micro-batches", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--port", type=int, default=29520)
    args = parser.parse_args()
    mp.spawn(worker, args=(args,), nprocs=args.stages, join=True)


if __name__ == "__main__":
    main()
