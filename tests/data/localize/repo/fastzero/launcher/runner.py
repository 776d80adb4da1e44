"""fastzero launcher: starts one process per local rank and streams their output.

    python -m fastzero.launcher.runner --nproc 2 [--prefix rank|srun|none] script.py [args...]
"""
import argparse
import os
import signal
import subprocess
import sys
import threading
import time

from fastzero.utils.logging import logger

PREFIXES = {"rank": "[rank{}]:", "srun": "{}: ", "none": ""}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="fastzero distributed launcher")
    parser.add_argument("--nproc", type=int, default=1)
    parser.add_argument("--master_addr", default="127.0.0.1")
    parser.add_argument("--master_port", type=int, default=29500)
    parser.add_argument("--prefix", choices=sorted(PREFIXES), default="rank")
    parser.add_argument("script")
    parser.add_argument("script_args", nargs=argparse.REMAINDER)
    return parser.parse_args(argv)


def _pump(stream, prefix, out):
    for line in iter(stream.readline, ""):
        out.write(prefix + line)
        out.flush()


def main(argv=None):
    args = parse_args(argv)
    logger.info(f"WORLD INFO DICT: {{'localhost': {list(range(args.nproc))}}}")
    logger.info(f"nnodes=1, num_local_procs={args.nproc}, node_rank=0")
    procs, pumps = [], []
    for rank in range(args.nproc):
        env = dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nproc),
                   MASTER_ADDR=args.master_addr, MASTER_PORT=str(args.master_port),
                   PYTHONUNBUFFERED="1")
        cmd = [sys.executable, "-u", args.script] + args.script_args
        logger.info(f"process {rank} spawned with command: {cmd}")
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        prefix = PREFIXES[args.prefix].format(rank)
        t = threading.Thread(target=_pump, args=(proc.stdout, prefix, sys.stdout), daemon=True)
        t.start()
        procs.append(proc)
        pumps.append(t)
    failed = None
    while failed is None and any(p.poll() is None for p in procs):
        for p in procs:
            if p.poll() not in (None, 0):
                failed = p
                break
        time.sleep(0.2)
    if failed is None:
        failed = next((p for p in procs if p.returncode != 0), None)
    if failed is not None:
        time.sleep(1.0)
        for p in procs:
            if p.poll() is None:
                logger.info(f"Killing subprocess {p.pid}")
                p.send_signal(signal.SIGTERM)
        for t in pumps:
            t.join(timeout=5)
        logger.error(f"Process {failed.pid} exits with return code = {failed.returncode}")
        sys.exit(failed.returncode)
    for t in pumps:
        t.join(timeout=5)


if __name__ == "__main__":
    main()
