#!/usr/bin/env python3
"""Run one command as N ranks with torchrun's environment contract.

Usage: launch.py --nproc N [--timeout S] -- CMD...

Each rank gets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR and a
free MASTER_PORT, runs in its own process group, and has its output prefixed with
"[rankK]:" the way recent launchers print it. The exit status is the first
non-zero rank status (124 when the time limit killed the ranks). smallfix's own
runner does the same in C++; this script lets a person reproduce a benchmark bug
by hand and lets the benchmark's self-check run without the engine.
"""
import argparse
import os
import selectors
import signal
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nproc", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd or args.nproc < 1:
        ap.error("need --nproc N >= 1 and a command after --")
    port = str(free_port())
    procs = []
    sel = selectors.DefaultSelector()
    for rank in range(args.nproc):
        env = dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank),
                   WORLD_SIZE=str(args.nproc), LOCAL_WORLD_SIZE=str(args.nproc),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=port,
                   PYTHONUNBUFFERED="1")
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(p)
        sel.register(p.stdout, selectors.EVENT_READ, rank)
    deadline = time.monotonic() + args.timeout
    open_streams = len(procs)
    timed_out = False
    # Read raw chunks, not lines: a rank that printed half a line (pytest's progress dots)
    # and then hangs must not block the time limit.
    pending = {rank: b"" for rank in range(len(procs))}

    def emit(rank, data):
        sys.stdout.write("[rank%d]:%s" % (rank, data.decode("utf-8", "replace")))

    while open_streams:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        for key, _ in sel.select(timeout=min(left, 1.0)):
            chunk = os.read(key.fileobj.fileno(), 65536)
            rank = key.data
            if not chunk:
                sel.unregister(key.fileobj)
                open_streams -= 1
                if pending[rank]:
                    emit(rank, pending[rank] + b"\n")
                    pending[rank] = b""
                continue
            pending[rank] += chunk
            *lines, pending[rank] = pending[rank].split(b"\n")
            for line in lines:
                emit(rank, line + b"\n")
            sys.stdout.flush()
    for rank, rest in pending.items():
        if rest:
            emit(rank, rest + b"\n")
    if timed_out:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for p in procs:
            p.wait()
        print("launch.py: ranks killed after %.0f s time limit" % args.timeout)
        return 124
    codes = [p.wait() for p in procs]
    return next((c for c in codes if c != 0), 0)


if __name__ == "__main__":
    sys.exit(main())
