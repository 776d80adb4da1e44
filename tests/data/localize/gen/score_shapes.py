"""Scores a smallfix binary on shapes.yaml and shapes_more.yaml: top-1 and top-3 per shape (the
corpus test does the same in C++).

    /usr/bin/python3 tests/data/localize/gen/score_shapes.py path/to/smallfix
"""
import collections
import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def main(binary):
    entries = [e for name in ("shapes.yaml", "shapes_more.yaml")
               for e in yaml.safe_load((ROOT / name).read_text())]
    per = collections.defaultdict(lambda: [0, 0, 0, 0])  # cases, top1, top3, no-failure answers
    for e in entries:
        p = subprocess.run([binary, "localize", "--repo", str(ROOT / e.get("repo", "repo")), "--log",
                            str(ROOT / e["case"]), "--json"], capture_output=True, text=True)
        sites = []
        if p.returncode == 0:
            sites = [f"{s['file']}:{s['line']}" for s in json.loads(p.stdout).get("sites", [])]
        elif "no failure found" in p.stderr:
            per[e["shape"]][3] += 1
        want = f"{e['file']}:{e['line']}"
        ok3 = want in sites[:3] and (not e.get("also_top3") or e["also_top3"] in sites[:3])
        c = per[e["shape"]]
        c[0] += 1
        c[1] += bool(sites) and sites[0] == want
        c[2] += ok3
        if not sites or sites[0] != want:
            print(f"  miss {e['case']}: got {sites[:3]} want {want}", file=sys.stderr)
    tot = [sum(v[i] for v in per.values()) for i in range(4)]
    print(f"{'shape':16} {'cases':>5} {'top-1':>7} {'top-3':>7} {'no-failure':>10}")
    for shape, (n, t1, t3, nf) in sorted(per.items()):
        print(f"{shape:16} {n:5} {t1:3}/{n:<3} {t3:3}/{n:<3} {nf:10}")
    n, t1, t3, nf = tot
    print(f"{'all':16} {n:5} {t1:3}/{n:<3} {t3:3}/{n:<3} {nf:10}  top-1 {100*t1/n:.1f}%  top-3 {100*t3/n:.1f}%")


if __name__ == "__main__":
    main(sys.argv[1])
