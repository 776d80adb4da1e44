#!/usr/bin/env python3
"""Two or more `smallfix bench --json` results of the same bugs, compared bug by bug.

Used to check that a change meant for speed (warm validation) changes no outcome: prints, as
markdown, each run's totals (plausible, correct, mean and median seconds per bug, wall time)
and every bug whose plausible/correct/rank differs between the runs; exits 1 when one does.

  python3 benchmarks/perf/compare_bench_runs.py cold.json warm.json [more.json ...]
"""
import json
import statistics
import sys


def main():
    paths = sys.argv[1:]
    if len(paths) < 2:
        sys.exit(__doc__)
    runs = [json.load(open(path)) for path in paths]
    print("| run | validation | bugs | plausible | correct | mean s per bug | median s per bug | wall s | bugs warm to the end |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path, run in zip(paths, runs):
        bugs = run["bugs"]
        seconds = [b["seconds"] for b in bugs]
        print(f"| {path.split('/')[-1]} | {run.get('validation', 'cold')} | {len(bugs)} | "
              f"{sum(b['plausible'] for b in bugs)} | {sum(b['correct'] for b in bugs)} | "
              f"{statistics.mean(seconds):.1f} | {statistics.median(seconds):.1f} | {run['seconds']:.0f} | "
              f"{sum(b['warm'] for b in bugs) if 'warm' in bugs[0] else 'n/a'} |")
    outcome = lambda b: (b["plausible"], b["correct"], b.get("rank"))
    by_id = [{b["id"]: b for b in run["bugs"]} for run in runs]
    ids = sorted(set().union(*by_id))
    differ = [i for i in ids if len({str(outcome(r[i])) if i in r else "missing" for r in by_id}) > 1]
    print()
    if not differ:
        print(f"Same plausible, correct and rank for all {len(ids)} bugs in every run.")
        return
    print("| bug | " + " | ".join(p.split("/")[-1] for p in paths) + " |")
    print("| --- |" + " --- |" * len(paths))
    for i in differ:
        cells = [(f"plausible={r[i]['plausible']} correct={r[i]['correct']} rank={r[i].get('rank')} "
                  f"({r[i]['outcome']})") if i in r else "missing" for r in by_id]
        print(f"| {i} | " + " | ".join(cells) + " |")
    sys.exit(1)


if __name__ == "__main__":
    main()
