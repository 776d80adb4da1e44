#!/usr/bin/env python3
"""What the runtime-facts capture adds to a test run: each command with and without the plugin.

For each bug of benchmarks/smallfix/bugs (single-rank ones), in a fresh copy of its project:

  failing   its failing test, as smallfix's reproduction runs it (a JUnit report), without
            the plugin and with it (the facts of the failure written)
  passing   its passing tests, without the plugin and with it tracing the bug's site line
            (the locals there in every passing test)

ROUNDS rounds, the two forms alternating in order so that machine load falls on both alike.
Printed per bug and command: the median wall-clock and CPU seconds of each form and with /
without (the goal of issue 25: at most 1.10 for the failing run). Raw seconds follow as
comments. The bugs must fail on the installed torch.

  python3 benchmarks/perf/fact_capture_cost.py [--rounds 5] [--python .venv/bin/python] [BUG ...]
"""
import argparse
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUGS = os.path.join(ROOT, "benchmarks", "smallfix", "bugs")
PLUGIN_DIR = os.path.join(ROOT, "validators", "facts")
DEFAULT_BUGS = ["guard-none-grad-skip", "param-drop-unexpected-kwarg", "guard-key-membership-config"]


def pytest_args(command):
    """The arguments after `python -m pytest` in a bug's test command."""
    words = shlex.split(command)
    return words[words.index("pytest") + 1:]


def timed_run(python, project, args, work, facts):
    """(wall seconds, CPU seconds) of one run; with `facts` the plugin is loaded and its JSON
    must appear. CPU time (user + system of the run's processes) is the steadier figure on a
    loaded machine: what others run stretches the wall clock, not the run's own work."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    command = [python, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={work}/junit.xml", *args]
    out = os.path.join(work, "facts.json")
    if facts is not None:
        env["PYTHONPATH"] = PLUGIN_DIR
        command += ["-p", "smallfix_fact_capture", f"--smallfix-facts={out}", *facts]
        if os.path.exists(out):
            os.remove(out)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(command, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if facts is not None and not os.path.exists(out):
        sys.exit(f"{project}: the plugin wrote no facts for {' '.join(args)}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(python, project, args, work, facts, rounds):
    runs = {"without": [], "with": []}
    for round_number in range(rounds):
        order = ("without", "with") if round_number % 2 == 0 else ("with", "without")
        for form in order:
            runs[form].append(timed_run(python, project, args, work, facts if form == "with" else None))
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"))
    parser.add_argument("bugs", nargs="*", default=DEFAULT_BUGS)
    args = parser.parse_args()
    print("| bug | run | without wall s | with wall s | ratio | without CPU s | with CPU s | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for bug in args.bugs:
        spec = yaml.safe_load(open(os.path.join(BUGS, bug, "bug.yaml")))
        if spec["world_size"] != 1:
            sys.exit(f"{bug}: runs on {spec['world_size']} ranks; this benchmark runs single-process bugs")
        site = f"{spec['site']['file']}:{spec['site']['line']}"
        with tempfile.TemporaryDirectory(prefix="fact-capture-cost-") as work:
            project = os.path.join(work, "project")
            shutil.copytree(os.path.join(BUGS, bug, "project"), project)
            for name, command, facts in (("failing", spec["tests"]["failing"], []),
                                         ("passing", spec["tests"]["passing"], [f"--smallfix-facts-trace={site}"])):
                runs = measure(args.python, project, pytest_args(command), work, facts, args.rounds)
                row = [f"| {bug} | {name} "]
                for kind in (0, 1):  # wall, CPU
                    without = statistics.median(r[kind] for r in runs["without"])
                    with_ = statistics.median(r[kind] for r in runs["with"])
                    row.append(f"| {without:.2f} | {with_:.2f} | {with_ / without:.3f} ")
                print("".join(row) + "|")
                every = lambda form, kind: ", ".join(f"{r[kind]:.2f}" for r in runs[form])
                print(f"<!-- {bug} {name}: wall without {every('without', 0)}; with {every('with', 0)}; "
                      f"CPU without {every('without', 1)}; with {every('with', 1)} -->", flush=True)


if __name__ == "__main__":
    main()
