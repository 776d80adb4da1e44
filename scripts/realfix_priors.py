#!/usr/bin/env python3
"""Sets each template's `prior:` to its precision on realfix's dev split.

A template's precision is the share of the candidates it generated at realfix `dev` sites that
are the upstream fix (same Python AST). It is counted over the runs without the symptom: every
fix has one, and with so few stated symptoms the runs with one repeat them. Each fix's attempt
in `bench --realfix --json` lists `generated_by_template` (candidates per template, after the
per-site cap) and `template` (the template of the first candidate that is the fix). Few
candidates say little, so the measured share is smoothed towards the template's current prior
as if that prior had been seen on SMOOTHING candidates:

    prior = (correct + SMOOTHING * old_prior) / (generated + SMOOTHING)

clamped to [FLOOR, 1]. A template that generated nothing on dev keeps its prior. A generic
template's `prior:` is set; a template with symptoms keeps `prior:` (how it ranks when its
symptom matches) and gets `unmatched-prior:` (how it ranks when tried without one, which is
what the dev runs measure). Only that one line of each YAML file changes, so the diff is
reviewed like any template change.

Usage:
  scripts/realfix_priors.py --results dev.json [--results more-dev.json] [--templates templates] [--dry-run]
  where each results file is `smallfix bench --realfix --split dev --json FILE`'s output. Never
  pass test-split results: the test split measures the priors, it must not set them.
"""
import argparse
import json
import pathlib
import re
import sys

SMOOTHING = 5.0
FLOOR = 0.02


def candidate_counts(results):
    """(template -> candidates generated, template -> candidates that were the fix) over the
    dev fixes' runs without the symptom."""
    generated, correct = {}, {}
    for fix in results.get("fixes", []):
        if fix.get("split") != "dev":
            continue
        attempt = fix.get("without_symptom")
        if not isinstance(attempt, dict):
            continue  # the run failed (no mirror, ...): it says nothing about the templates
        counts = attempt.get("generated_by_template")
        if not isinstance(counts, dict):
            sys.exit("realfix_priors: results lack `generated_by_template`; rerun bench --realfix with this engine")
        for template, n in counts.items():
            generated[template] = generated.get(template, 0) + int(n)
        if attempt.get("template"):
            correct[attempt["template"]] = correct.get(attempt["template"], 0) + 1
    return generated, correct


def split_of(results):
    split = results.get("split") if isinstance(results, dict) else None
    return split


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", action="append", required=True, help="bench --realfix --json output (dev)")
    parser.add_argument("--templates", default=str(pathlib.Path(__file__).resolve().parent.parent / "templates"))
    parser.add_argument("--dry-run", action="store_true", help="print the table, change nothing")
    args = parser.parse_args()

    generated, correct = {}, {}
    for path in args.results:
        try:
            results = json.loads(pathlib.Path(path).read_text())
        except (OSError, ValueError) as error:
            sys.exit(f"realfix_priors: cannot read {path}: {error}")
        if split_of(results) not in (None, "dev"):
            sys.exit(f"realfix_priors: {path} holds the '{split_of(results)}' split; priors come from dev only")
        g, c = candidate_counts(results)
        for template, n in g.items():
            generated[template] = generated.get(template, 0) + n
        for template, n in c.items():
            correct[template] = correct.get(template, 0) + n
    if not generated:
        sys.exit("realfix_priors: no dev fix in the results generated a candidate")

    files = sorted(pathlib.Path(args.templates).rglob("*.yaml"))
    if not files:
        sys.exit(f"realfix_priors: no templates under {args.templates}")
    print(f"{'template':45} {'key':16} {'gen':>5} {'ok':>4} {'old':>5} {'new':>5}")
    for path in files:
        text = path.read_text()
        template_id = re.search(r"^id:\s*(\S+)", text, re.M)
        if not template_id:
            continue
        template_id = template_id.group(1)
        # A template with symptoms keeps `prior:` for when its symptom matches; the dev runs,
        # without a symptom, measure it unmatched, so that goes to `unmatched-prior:`.
        key = "prior" if re.search(r"^symptoms:", text, re.M) is None else "unmatched-prior"
        prior_match = re.search(r"^prior:\s*([0-9.]+)", text, re.M)
        old_match = re.search(rf"^{key}:\s*([0-9.]+)", text, re.M)
        old = float((old_match or prior_match).group(1)) if (old_match or prior_match) else 0.5
        n, k = generated.get(template_id, 0), correct.get(template_id, 0)
        if n == 0:
            continue  # not seen on dev: nothing to learn
        new = max(FLOOR, min(1.0, (k + SMOOTHING * old) / (n + SMOOTHING)))
        new = round(new, 3)
        print(f"{template_id:45} {key:16} {n:5d} {k:4d} {old:5.3f} {new:5.3f}")
        if args.dry_run or (old_match and new == old):
            continue
        line = f"{key}: {new}  # realfix dev: {k} of {n} candidates correct"
        if old_match:
            text = re.sub(rf"^{key}:.*$", line, text, count=1, flags=re.M)
        elif prior_match:
            text = re.sub(r"^(prior:.*)$", lambda m: m.group(1) + "\n" + line, text, count=1, flags=re.M)
        else:
            text = re.sub(r"^(summary:.*)$", lambda m: m.group(1) + "\n" + line, text, count=1, flags=re.M)
        path.write_text(text)

if __name__ == "__main__":
    main()
