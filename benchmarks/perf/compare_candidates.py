#!/usr/bin/env python3
"""Candidate lists of two smallfix binaries over every benchmark bug, compared.

For each bug, `repair --issue issue.md --no-validate --json` (localization and candidate
generation, no test run) and `repair --site FILE:LINE` from bug.yaml with the issue's
symptom; the candidates (template, file, line, diff) must be identical (an order that
differs is reported apart). Set SMALLFIX_TEMPLATES to one template directory both accept. Used to
check that an engine change meant for speed changes no candidate; prints each binary's
total seconds too.

  python3 benchmarks/perf/compare_candidates.py OLD_SMALLFIX NEW_SMALLFIX
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUGS = os.path.join(ROOT, "benchmarks", "smallfix", "bugs")


def site_of(bug_dir):
    for line in open(os.path.join(bug_dir, "bug.yaml")):
        if line.startswith("site:"):
            fields = dict(part.strip().split(": ") for part in line.split("{")[1].split("}")[0].split(","))
            return f"{fields['file']}:{fields['line']}"
    return None


def candidates(binary, args):
    start = time.monotonic()
    out = subprocess.run([binary, "repair", "--no-validate", "--json"] + args, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if out.returncode not in (0, 1):
        return None, seconds, out.stderr.strip().splitlines()[-1:] 
    data = json.loads(out.stdout)
    return [(c["template"], c["file"], c["line"], c["diff"]) for c in data["candidates"]], seconds, None


def main():
    old, new = sys.argv[1], sys.argv[2]
    totals = {old: 0.0, new: 0.0}
    differ = 0
    reordered = 0
    runs = 0
    for bug in sorted(os.listdir(BUGS)):
        bug_dir = os.path.join(BUGS, bug)
        project = os.path.join(bug_dir, "project")
        variants = [["--repo", project, "--issue", os.path.join(bug_dir, "issue.md")]]
        site = site_of(bug_dir)
        if site:
            variants.append(["--repo", project, "--site", site])
        for args in variants:
            results = {}
            for binary in (old, new):
                results[binary] = candidates(binary, args)
                totals[binary] += results[binary][1]
            runs += 1
            if results[old][0] != results[new][0]:
                same_set = sorted(results[old][0] or []) == sorted(results[new][0] or [])
                if same_set:
                    reordered += 1
                    print(f"REORDERED {bug} {' '.join(args[2:])}")
                    continue
                differ += 1
                print(f"DIFFER {bug} {' '.join(args[2:])}: {len(results[old][0] or [])} vs {len(results[new][0] or [])} "
                      f"candidates {results[old][2] or ''} {results[new][2] or ''}")
    print(f"{runs} repairs, {differ} with different candidates, {reordered} with the same ones in another order; "
          f"seconds: old {totals[old]:.1f}, new {totals[new]:.1f}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
