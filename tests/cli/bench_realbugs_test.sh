#!/usr/bin/env bash
# smallfix bench --realbugs on a fixture made here: a tiny project with a history whose fix
# commit adds a None guard and a regression test. Its venv is the project's own .venv (linked
# into a cache made for the test). Checks: realbugs.py facts derives the sums and the split;
# --verify passes for the real bug and fails, naming why, for a bug whose test passes before
# the fix; the repair from the failing test's output alone is plausible and correct with the
# fixed function first among the sites, and --localize-only finds the same rank from the saved
# output and the fix among its unvalidated candidates, with a loopback model's edits among them
# under --llm; a tree from a "PyPI" source distribution
# (a local find-links folder) holds the same text; a broken bugs file is refused naming the line.
set -euo pipefail
SMALLFIX="$1"
SOURCE_DIR="$2"
VENV_PYTHON="$SOURCE_DIR/.venv/bin/python"
[[ -x "$VENV_PYTHON" ]] || { echo "no project venv at $VENV_PYTHON: run scripts/setup.sh"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git_() { git -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c init.defaultBranch=main "$@"; }

mkdir -p "$work/src/tiny/src/tiny" "$work/src/tiny/tests"
cd "$work/src/tiny"
git_ init -q
cat > src/tiny/__init__.py <<'PY'
PY
cat > src/tiny/buckets.py <<'PY'
def sizes(params):
    out = []
    for p in params:
        out.append(p.grad.numel())
    return out


def total(params):
    return sum(sizes(params))
PY
cat > tests/test_buckets.py <<'PY'
import torch

from tiny.buckets import sizes, total


def test_sizes():
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.ones(3)
    assert sizes([p]) == [3]
PY
git_ add -A && git_ commit -qm "buckets"
cat > src/tiny/buckets.py <<'PY'
def sizes(params):
    out = []
    for p in params:
        if p.grad is None:
            continue
        out.append(p.grad.numel())
    return out


def total(params):
    return sum(sizes(params))
PY
cat >> tests/test_buckets.py <<'PY'


def test_frozen_parameter_is_skipped():
    frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)
    assert sizes([frozen]) == []


def test_total_of_frozen():
    frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)
    assert total([frozen]) == 0
PY
git_ commit -qam "Skip frozen parameters in sizes (#7)"
parent=$(git rev-parse HEAD~1) fix=$(git rev-parse HEAD)
mkdir -p "$work/mirrors/acme+tiny"
git_ clone -q --mirror "$work/src/tiny" "$work/mirrors/acme+tiny/repo"

# The benchmark's folder: bugs (through staging/, as the facts step reads them) and an env.
bench="$work/realbugs"
mkdir -p "$bench/staging" "$bench/envs"
echo "pytest==0.0.0  # not installed: the test links the project venv" > "$bench/envs/tiny-2026.txt"
common='"project": "tiny", "repo": "acme/tiny", "env": "tiny-2026", "source_root": "src", "files": ["src/tiny/buckets.py"], "test_files": ["tests/test_buckets.py"], "family": "guard", "processes": 1, "issue": null'
cat > "$bench/staging/tiny.jsonl" <<JSON
{"id": "tiny-guard", $common, "fix_commit": "$fix", "parent_commit": "$parent", "failing_tests": ["tests/test_buckets.py::test_frozen_parameter_is_skipped"], "regression_tests": ["tests/test_buckets.py::test_sizes"], "held_back_tests": ["tests/test_buckets.py::test_total_of_frozen"]}
{"id": "tiny-passes-before", $common, "fix_commit": "$fix", "parent_commit": "$parent", "failing_tests": ["tests/test_buckets.py::test_sizes"], "regression_tests": [], "held_back_tests": []}
JSON
export SMALLFIX_REALBUGS_DIR="$bench" SMALLFIX_REALBUGS_CACHE="$work/cache"
python3 "$SOURCE_DIR/scripts/realbugs.py" facts --staging --mirror-root "$work/mirrors" 2>"$work/facts.err"
python3 - "$bench/bugs.jsonl" "$fix" <<'PY'
import hashlib, json, sys
bugs = [json.loads(line) for line in open(sys.argv[1])]
assert [b["id"] for b in bugs] == ["tiny-guard", "tiny-passes-before"], bugs
bug = bugs[0]
assert bug["lines_changed"] == 2, bug["lines_changed"]
want = "test" if int(hashlib.sha256(sys.argv[2].encode()).hexdigest()[:8], 16) % 5 < 2 else "dev"
assert bug["split"] == want, (bug["split"], want)
sums = bug["sha256"]["src/tiny/buckets.py"]
assert sums["parent"] != sums["fix"] and len(sums["parent"]) == 64, sums
PY

# No venv yet: a clear error that says how to make it.
set +e
"$SMALLFIX" bench --realbugs --verify --mirror-root "$work/mirrors" --bug tiny-guard > "$work/out" 2>&1
status=$?
set -e
[[ $status -eq 1 ]] || { echo "expected exit 1 without a venv, got $status"; cat "$work/out"; exit 1; }
grep -q "scripts/realbugs.sh setup --env tiny-2026" "$work/out" || { cat "$work/out"; exit 1; }

# The venv: the project's own, as a folder of links to its parts where setup would have made
# it (the venv's python finds pyvenv.cfg beside it), stamped as up to date with the lock.
mkdir -p "$work/cache/venvs/tiny-2026"
for entry in "$SOURCE_DIR"/.venv/* "$SOURCE_DIR"/.venv/pyvenv.cfg; do ln -sf "$entry" "$work/cache/venvs/tiny-2026/"; done
python3 -c "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest(), end='')" \
  "$bench/envs/tiny-2026.txt" > "$work/stamp"
cp "$work/stamp" "$work/cache/venvs/tiny-2026/.smallfix-lock"

set +e
"$SMALLFIX" bench --realbugs --verify --mirror-root "$work/mirrors" --json "$work/verify.json" > "$work/out" 2>&1
status=$?
set -e
[[ $status -eq 1 ]] || { echo "expected exit 1 (one bug does not verify), got $status"; cat "$work/out"; exit 1; }
python3 - "$work/verify.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
bugs = {b["id"]: b for b in run["bugs"]}
assert run["mode"] == "verify" and run["totals"]["verified"] == 1, run["totals"]
assert bugs["tiny-guard"]["verified"] and bugs["tiny-guard"]["source"] == "git", bugs["tiny-guard"]
assert "AttributeError" in bugs["tiny-guard"]["symptom"], bugs["tiny-guard"]
detail = bugs["tiny-passes-before"]["detail"]
assert "pass on the buggy tree" in detail, detail
PY

# The repair, from the failing test's output alone.
"$SMALLFIX" bench --realbugs --mirror-root "$work/mirrors" --bug tiny-guard --json "$work/repair.json" \
  --markdown "$work/repair.md" --chart "$work/repair.svg" --outputs "$work/outputs" > "$work/out" 2>&1 \
  || { cat "$work/out"; exit 1; }
python3 - "$work/repair.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
bug = run["bugs"][0]
assert bug["plausible"] and bug["correct"] and not bug["overfit"], bug
assert bug["localization_rank"] == 1 and bug["correct_rank"] >= 1, bug
assert bug["cold_seconds"] > 0 and bug["first_plausible_seconds"] >= 0, bug
assert run["totals"]["localized_top1"] == 1 and run["totals"]["median_time_ratio"] is not None, run["totals"]
PY
grep -q "tiny-guard" "$work/repair.md"
grep -q "<svg" "$work/repair.svg"
grep -q "test_frozen_parameter_is_skipped" "$work/outputs/tiny-guard.txt"

# --localize-only reads the saved output instead of running the tests: the same rank as the
# full run; a bug with no saved output is an error that says so; the flag needs the folder.
"$SMALLFIX" bench --realbugs --localize-only --from-outputs "$work/outputs" --mirror-root "$work/mirrors" \
  --json "$work/localize.json" --markdown "$work/localize.md" > "$work/out" 2>&1 || { cat "$work/out"; exit 1; }
python3 - "$work/repair.json" "$work/localize.json" <<'PY'
import json, sys
full = {b["id"]: b for b in json.load(open(sys.argv[1]))["bugs"]}
run = json.load(open(sys.argv[2]))
bugs = {b["id"]: b for b in run["bugs"]}
assert run["mode"] == "localize", run["mode"]
assert bugs["tiny-guard"]["localization_rank"] == full["tiny-guard"]["localization_rank"] == 1, bugs
assert bugs["tiny-guard"]["sites"] == full["tiny-guard"]["sites"], (bugs, full)
assert "no saved failing output" in bugs["tiny-passes-before"]["error"], bugs["tiny-passes-before"]
assert run["totals"]["localized_top1"] == 1 and run["totals"]["errors"] == 1, run["totals"]
# No candidate is run, but the ones generated are compared with the fix all the same.
assert bugs["tiny-guard"]["correct_rank"] is not None and bugs["tiny-guard"]["correct_rank"] >= 1, bugs
assert run["totals"]["fix_generated"] == 1, run["totals"]
PY
grep -q "| tiny-guard | .* | localized | 1 | [0-9]* | [0-9]* | [0-9]* |" "$work/localize.md" || { cat "$work/localize.md"; exit 1; }
# --llm reaches the repairs: a loopback model (tests/cli/llm_server.py) is asked for edits at
# the sites, its one edit (a rewrite of the function, not the fix) joins the candidates, and
# the fix is still a template's; the run names the model. --verify refuses --llm.
python3 - "$work/edits.json" <<'PY'
import json, sys
code = "def sizes(params):\n    return [p.grad.numel() for p in params if p.grad is not None]"
json.dump([{"site": "s1", "target": "function", "summary": "skip frozen", "code": code}], open(sys.argv[1], "w"))
PY
python3 "$SOURCE_DIR/tests/cli/llm_server.py" worst "$work/llm.port" "$work/llm.log" --prefer llm \
  --edits "$work/edits.json" &
llm_pid=$!
trap 'kill $llm_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [[ -s "$work/llm.port" ]] && break; sleep 0.1; done
llm_url="http://127.0.0.1:$(cat "$work/llm.port")"
"$SMALLFIX" bench --realbugs --localize-only --from-outputs "$work/outputs" --mirror-root "$work/mirrors" \
  --bug tiny-guard --llm "$llm_url" --llm-propose 2 --llm-cache "$work/llm-cache" \
  --json "$work/llm.json" --markdown "$work/llm.md" > "$work/out" 2>&1 || { cat "$work/out"; exit 1; }
python3 - "$work/llm.json" "$work/llm.log" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
bug = run["bugs"][0]
assert run["llm"] == {"model": "loopback-model", "propose": 2}, run["llm"]
assert bug["llm_candidates"] == 1, bug
assert bug["correct_rank"] is not None and bug["fix_template"].startswith("guard."), bug
assert run["totals"]["fix_by_llm"] == 0, run["totals"]
kinds = [json.loads(line).get("kind") for line in open(sys.argv[2])]
assert "propose" in kinds, kinds
PY
grep -q "With the model loopback-model" "$work/llm.md" || { cat "$work/llm.md"; exit 1; }
set +e
"$SMALLFIX" bench --realbugs --verify --mirror-root "$work/mirrors" --llm "$llm_url" > "$work/out" 2>&1
status=$?
set -e
[[ $status -eq 2 ]] && grep -q "llm needs a repair" "$work/out" || { echo "exit $status"; cat "$work/out"; exit 1; }
kill $llm_pid 2>/dev/null || true

set +e
"$SMALLFIX" bench --realbugs --localize-only --bug tiny-guard > "$work/out" 2>&1
status=$?
set -e
[[ $status -eq 2 ]] && grep -q "give --from-outputs DIR" "$work/out" || { echo "exit $status"; cat "$work/out"; exit 1; }

# A tree from source distributions: 1.0 without the fix, 1.1 with it and its test, served by
# a PyPI JSON API of files (SMALLFIX_PYPI_JSON=file://...).
make_sdist() {  # version commit
  local dir="$work/sd/tiny-$1"
  mkdir -p "$dir"
  git -C "$work/mirrors/acme+tiny/repo" archive "$2" | tar -x -C "$dir"
  printf 'Metadata-Version: 2.1\nName: tiny\nVersion: %s\n' "$1" > "$dir/PKG-INFO"
  tar -czf "$work/sdists/tiny-$1.tar.gz" -C "$work/sd" "tiny-$1"
}
mkdir -p "$work/sdists"
make_sdist 1.0 "$parent"
make_sdist 1.1 "$fix"
mkdir -p "$work/pypi/tiny"
release() { printf '"%s": [{"packagetype": "sdist", "filename": "tiny-%s.tar.gz", "url": "../../sdists/tiny-%s.tar.gz"}]' "$1" "$1" "$1"; }
echo "{\"releases\": {$(release 1.0), $(release 1.1)}}" > "$work/pypi/tiny/json"
export SMALLFIX_PYPI_JSON="file://$work/pypi"
python3 - "$bench/bugs.jsonl" <<'PY'
import json, sys
bugs = [json.loads(line) for line in open(sys.argv[1])]
bugs[0]["pypi"] = {"package": "tiny", "buggy": "1.0", "fixed": "1.1"}
open(sys.argv[1], "w").write("".join(json.dumps(b) + "\n" for b in bugs))
PY
python3 "$SOURCE_DIR/scripts/realbugs.py" tree --bug tiny-guard --side buggy --from pypi --dest "$work/from-pypi"
cmp "$work/from-pypi/src/tiny/buckets.py" <(git -C "$work/mirrors/acme+tiny/repo" show "$parent:src/tiny/buckets.py")
cmp "$work/from-pypi/tests/test_buckets.py" <(git -C "$work/mirrors/acme+tiny/repo" show "$fix:tests/test_buckets.py")
git -C "$work/from-pypi" rev-parse -q --verify HEAD >/dev/null
# The same bug verifies from PyPI alone.
"$SMALLFIX" bench --realbugs --verify --tree-source pypi --bug tiny-guard --json "$work/pypi.json" > "$work/out" 2>&1 \
  || { cat "$work/out"; exit 1; }
grep -q '"source": "pypi"' "$work/pypi.json"
# A release whose text differs from the history's is refused, and nothing is left behind.
printf '# changed\n' >> "$work/sd/tiny-1.1/src/tiny/buckets.py"
tar -czf "$work/sdists/tiny-1.1.tar.gz" -C "$work/sd" tiny-1.1
rm -rf "$work/cache/sdists"
set +e
python3 "$SOURCE_DIR/scripts/realbugs.py" tree --bug tiny-guard --side fixed --from pypi --dest "$work/bad-pypi" 2> "$work/err"
status=$?
set -e
[[ $status -eq 2 ]] && grep -q "not the recorded text" "$work/err" && [[ ! -e "$work/bad-pypi" ]] \
  || { echo "a changed release was not refused: $status"; cat "$work/err"; exit 1; }

# A broken bugs file names its line.
printf '{"id": "x"}\n' > "$work/broken.jsonl"
set +e
"$SMALLFIX" bench --realbugs --bugs-file "$work/broken.jsonl" > "$work/out" 2>&1
status=$?
set -e
[[ $status -eq 2 ]] && grep -q "broken.jsonl:1: missing field" "$work/out" || { cat "$work/out"; exit 1; }
echo "bench --realbugs: ok"
