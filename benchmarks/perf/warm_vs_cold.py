#!/usr/bin/env python3
"""Time to the first plausible patch, warm against cold, side by side in one run.

For each bug, ROUNDS rounds; each round repairs the bug from its issue.md as scripts/demo.sh
does (its tests, its world size; a fresh git copy of project/) twice, `--cold` and warm, in
alternating order so that machine load falls on both alike. Reported per bug (medians):

  cold run   one cold run of the failing test: the cold repair's reproduction (on every rank)
  cold fp    the cold repair's time to its first plausible patch
  warm fp    the warm repair's time to its first plausible patch
  ratio      warm fp / cold run (the goal of issue 16: at most 2)

  python3 benchmarks/perf/warm_vs_cold.py [--rounds N] [--smallfix build/smallfix] [BUG ...]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUGS = os.path.join(ROOT, "benchmarks", "smallfix", "bugs")
DEFAULT_BUGS = ["guard-none-grad-skip", "compat-all-gather-into-tensor"]


def fresh_repo(bug, dest):
    shutil.copytree(os.path.join(BUGS, bug, "project"), dest)
    git = ["git", "-C", dest, "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    subprocess.run(["git", "-C", dest, "init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "buggy project"], check=True)


def repair(smallfix, bug, spec, cold):
    with tempfile.TemporaryDirectory(prefix="warm-vs-cold-") as work:
        repo = os.path.join(work, "repo")
        fresh_repo(bug, repo)
        command = [smallfix, "repair", "--repo", repo, "--issue", os.path.join(BUGS, bug, "issue.md"),
                   "--test", spec["tests"]["failing"], "--test", spec["tests"]["passing"],
                   "--world-size", str(spec["world_size"]), "--timeout", "120", "--json", "--quiet"]
        if spec["world_size"] > 1:
            command += ["--runner", "torchrun"]
        if cold:
            command.append("--cold")
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{bug} ({'cold' if cold else 'warm'}): exit {done.returncode}\n{done.stderr[-2000:]}")
        stats = json.loads(done.stdout)["stats"]
        if stats.get("warm") == cold:
            sys.exit(f"{bug}: asked for {'cold' if cold else 'warm'}, stats.warm is {stats.get('warm')}")
        return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smallfix", default=os.path.join(ROOT, "build", "smallfix"))
    parser.add_argument("bugs", nargs="*", default=DEFAULT_BUGS)
    args = parser.parse_args()
    print("| bug | ranks | cold run s | cold first plausible s | warm first plausible s | warm / cold run |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for bug in args.bugs:
        spec = yaml.safe_load(open(os.path.join(BUGS, bug, "bug.yaml")))
        runs = {True: [], False: []}
        for round_number in range(args.rounds):
            for cold in ((True, False) if round_number % 2 == 0 else (False, True)):
                runs[cold].append(repair(args.smallfix, bug, spec, cold))
        cold_run = statistics.median(s["reproduction_seconds"] for s in runs[True])
        cold_fp = statistics.median(s["first_plausible_seconds"] for s in runs[True])
        warm_fp = statistics.median(s["first_plausible_seconds"] for s in runs[False])
        every = lambda cold, key: ", ".join(f"{s[key]:.1f}" for s in runs[cold])
        print(f"| {bug} | {spec['world_size']} | {cold_run:.2f} | {cold_fp:.2f} | {warm_fp:.2f} | "
              f"{warm_fp / cold_run:.2f} |")
        print(f"<!-- {bug}: cold runs {every(True, 'reproduction_seconds')}; cold first plausible "
              f"{every(True, 'first_plausible_seconds')}; warm first plausible {every(False, 'first_plausible_seconds')}; "
              f"warm reproduction {every(False, 'reproduction_seconds')} -->")


if __name__ == "__main__":
    main()
