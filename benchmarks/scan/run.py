#!/usr/bin/env python3
"""smallfix scan against ast-grep over one Python tree, side by side in one run.

Both tools run the same three rules (sgconfig.yml and rules/ here; on smallfix's side the
scan stanzas of guard.eq-none-is + guard.ne-none-is-not, param.mutable-default and
compat.import-fallback), on the same number of threads, alternately, --repeat times each.
Wall time and peak RSS come from /usr/bin/time -v; findings are compared as (file, line)
per rule. Then smallfix runs once more with every template that has a scan stanza.

  npm ci --ignore-scripts --prefix benchmarks/scan   # ast-grep, pinned in package(-lock).json
  python3 benchmarks/scan/run.py [--target DIR] [--jobs N] [--repeat R] [--markdown FILE]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# smallfix template -> the ast-grep rule it corresponds to.
RULE_OF = {
    "guard.eq-none-is": "none-compare",
    "guard.ne-none-is-not": "none-compare",
    "param.mutable-default": "mutable-default",
    "compat.import-fallback": "removed-api",
}
TEMPLATE_FILES = ["guard/eq_none_is.yaml", "guard/ne_none_is_not.yaml", "param/mutable_default.yaml",
                  "compat/import_fallback.yaml"]


def ast_grep_binary():
    for path in ["node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep", "node_modules/.bin/ast-grep"]:
        full = os.path.join(HERE, path)
        if os.path.exists(full):
            return full
    sys.exit("ast-grep is not installed: run `npm ci --ignore-scripts --prefix benchmarks/scan` first")


def timed(command, out_path):
    """Runs command under /usr/bin/time -v; returns (exit status, wall s, peak RSS MiB, CPU s)."""
    with open(out_path, "wb") as out, tempfile.NamedTemporaryFile("r", suffix=".time") as times:
        rc = subprocess.run(["/usr/bin/time", "-v", "-o", times.name] + command, stdout=out,
                            stderr=subprocess.DEVNULL).returncode
        report = times.read()
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", report)
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report).group(1))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", report).group(1)) for kind in ("User", "System"))
    return rc, seconds, rss_kb / 1024, cpu


def ast_grep_findings(path, target):
    found = {}
    with open(path) as lines:
        for line in lines:
            match = json.loads(line)
            file = os.path.relpath(match["file"], target)
            found.setdefault(match["ruleId"], set()).add((file, match["range"]["start"]["line"] + 1))
    return found


def smallfix_findings(path):
    found = {}
    with open(path) as report:
        data = json.load(report)
    for finding in data["findings"]:
        rule = RULE_OF.get(finding["template"], finding["template"])
        found.setdefault(rule, set()).add((finding["file"], finding["line"]))
    return found, data["stats"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", default="/usr/lib/python3/dist-packages/torch")
    parser.add_argument("--smallfix", default=os.path.join(ROOT, "build", "smallfix"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", help="also write the table to FILE")
    args = parser.parse_args()
    target = os.path.realpath(args.target)
    ast_grep = ast_grep_binary()
    work = tempfile.mkdtemp(prefix="smallfix_scan_bench_")
    try:
        three = os.path.join(work, "templates")
        for name in TEMPLATE_FILES:
            os.makedirs(os.path.dirname(os.path.join(three, name)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, "templates", name), os.path.join(three, name))
        commands = {
            "ast-grep": [ast_grep, "scan", "-c", os.path.join(HERE, "sgconfig.yml"), "--json=stream",
                         "--threads", str(args.jobs), "--globs", "*.py", target],
            "smallfix": [args.smallfix, "scan", "--repo", target, "--templates", three, "--jobs", str(args.jobs),
                         "--json"],
        }
        runs = {name: [] for name in commands}
        for _ in range(args.repeat):
            for name, command in commands.items():
                rc, seconds, rss, cpu = timed(command, os.path.join(work, name + ".out"))
                if name == "ast-grep" and rc != 0:
                    sys.exit(f"ast-grep failed ({rc}): {' '.join(command)}")
                if name == "smallfix" and rc not in (0, 1):
                    sys.exit(f"smallfix scan failed ({rc}): {' '.join(command)}")
                runs[name].append((seconds, rss, cpu))
        theirs = ast_grep_findings(os.path.join(work, "ast-grep.out"), target)
        ours, stats = smallfix_findings(os.path.join(work, "smallfix.out"))
        all_command = [args.smallfix, "scan", "--repo", target, "--templates", os.path.join(ROOT, "templates"),
                       "--jobs", str(args.jobs), "--json"]
        all_runs = []
        for _ in range(args.repeat):
            rc, seconds, rss, cpu = timed(all_command, os.path.join(work, "all.out"))
            if rc not in (0, 1):
                sys.exit(f"smallfix scan failed ({rc}): {' '.join(all_command)}")
            all_runs.append((seconds, rss, cpu))
        all_found, all_stats = smallfix_findings(os.path.join(work, "all.out"))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def median(name, index, rows=None):
        return statistics.median(row[index] for row in (rows or runs[name]))

    ratio = median("smallfix", 0) / median("ast-grep", 0)
    lines = [
        f"Target: {target} ({stats['files']} .py files; smallfix parsed {stats['parsed']}); "
        f"{args.jobs} threads each; median of {args.repeat} alternating runs.",
        "",
        "| tool | rules | wall s (median) | wall s (all runs) | CPU s (median) | peak RSS MiB (median) |",
        "| --- | --- | ---: | --- | ---: | ---: |",
    ]
    for name in commands:
        lines.append(f"| {name} | 3 | {median(name, 0):.2f} | {', '.join(f'{row[0]:.2f}' for row in runs[name])} | "
                     f"{median(name, 2):.2f} | {median(name, 1):.0f} |")
    lines.append(f"| smallfix | all scan stanzas | {median(None, 0, all_runs):.2f} | "
                 f"{', '.join(f'{row[0]:.2f}' for row in all_runs)} | {median(None, 2, all_runs):.2f} | "
                 f"{median(None, 1, all_runs):.0f} |")
    cpu_ratio = median("smallfix", 2) / median("ast-grep", 2)
    all_ratio = median(None, 0, all_runs) / median("ast-grep", 0)
    lines += ["", f"smallfix / ast-grep, three rules: wall time {ratio:.2f}, CPU time {cpu_ratio:.2f}; "
              f"all scan stanzas / ast-grep's three, wall time: {all_ratio:.2f}", "",
              "| rule | ast-grep | smallfix | both | only ast-grep | only smallfix |",
              "| --- | ---: | ---: | ---: | --- | --- |"]
    differences = 0
    for rule in sorted(set(RULE_OF.values())):
        a, b = theirs.get(rule, set()), ours.get(rule, set())
        differences += len(a ^ b)
        show = lambda s: "; ".join(f"{f}:{l}" for f, l in sorted(s)[:5]) + (" ..." if len(s) > 5 else "")
        lines.append(f"| {rule} | {len(a)} | {len(b)} | {len(a & b)} | {show(a - b)} | {show(b - a)} |")
    lines += ["", "All scan stanzas: " + ", ".join(f"{rule} {len(found)}" for rule, found in sorted(all_found.items()))
              + f" (files parsed: {all_stats['parsed']})"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text)
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
