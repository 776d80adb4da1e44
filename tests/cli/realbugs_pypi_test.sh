#!/usr/bin/env bash
# The real-bug benchmark from PyPI alone, as CI and a user without the projects' histories
# run it: every bug of bugs.jsonl with a PyPI release pair is verified from the releases'
# source distributions (fails before the fix, passes after), and three of them (one
# multi-process when there is one) are repaired from their failing test's output. Needs PyPI;
# makes the venvs those bugs need (scripts/realbugs.sh setup; cached between runs).
set -euo pipefail
SMALLFIX="$1"
SOURCE_DIR="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t chosen < <(python3 - "$SOURCE_DIR/benchmarks/realbugs/bugs.jsonl" <<'PY'
import json, sys
bugs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
pypi = [b for b in bugs if b.get("pypi")]
multi = [b for b in pypi if b["processes"] > 1]
repair = (multi[:1] + [b for b in pypi if b not in multi[:1]])[:3]
print(",".join(b["id"] for b in pypi))
print(",".join(b["id"] for b in repair))
PY
)
verify="${chosen[0]}" repair="${chosen[1]}"
[[ -n "$verify" ]] || { echo "no bug of bugs.jsonl has a PyPI release pair"; exit 1; }
echo "realbugs from PyPI: verifying $verify; repairing $repair"
setup_args=()
for id in ${verify//,/ }; do setup_args+=(--bug "$id"); done
"$SOURCE_DIR/scripts/realbugs.sh" setup "${setup_args[@]}"

"$SMALLFIX" bench --realbugs --verify --tree-source pypi --bug "$verify" --jobs 2 --json "$work/verify.json"
python3 - "$work/verify.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert run["totals"]["verified"] == run["totals"]["bugs"] > 0, run["totals"]
assert all(b["source"] == "pypi" for b in run["bugs"]), [b["source"] for b in run["bugs"]]
PY

"$SMALLFIX" bench --realbugs --tree-source pypi --bug "$repair" --budget 240 --json "$work/repair.json"
python3 - "$work/repair.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
for bug in run["bugs"]:
    # Each repair ran: the failing output was read and localized; whether a patch was found
    # is the benchmark's figure, not this test's.
    assert "error" not in bug and bug["cold_seconds"] > 0 and bug["source"] == "pypi", bug
    print(f"{bug['id']}: {bug['outcome']}, localization {bug['localization_rank']}, {bug['candidates']} candidates")
PY
