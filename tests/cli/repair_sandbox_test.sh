#!/usr/bin/env bash
# The processes that run project code get no secret and, for candidates, no network
# (docs/threat-model.md). tests/data/repair/guard_clip_frozen gets a conftest.py that records,
# per test process, the secret-marked variables it and its parent see and whether a server on
# the host's loopback answers (tests/cli/sandbox_recorder.py). With a dozen secret-looking
# variables set, GITHUB_TOKEN and SMALLFIX_LLM_API_KEY among them:
#   1. warm (the default) with --coverage and --pass-env HF_TOKEN: no test process sees a secret
#      but HF_TOKEN, neither does the warm server; the coverage run and the reproduction reach the
#      host's server, the candidates do not; the report names what was withheld, never a value;
#   2. --cold --no-network: every run is offline, the text report says so;
#   3. --allow-network: the candidates reach the host's server too.
# Each finds the same plausible patch.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/sandbox_lib.bash"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
ALL="python -m pytest -q tests"
export_secrets
start_host_server

repair() {  # NAME FLAGS...: repairs a fresh recording repo; $work/NAME.{out,err,record}
  local run="$1"
  shift
  make_recording_repo "$NAME" "$work/$run" "$work/$run.record"
  set +e
  "$SMALLFIX" repair --repo "$work/$run" --issue "$DATA/$NAME/issue.md" --test "$FAILING" --test "$ALL" \
    --timeout 120 "$@" > "$work/$run.out" 2> "$work/$run.err"
  local rc=$?
  set -e
  test "$rc" = 0 || fail "$run: expected exit 0, got $rc: $(cat "$work/$run.err")"
  for name in $SECRET_NAMES; do
    if grep -q "${!name}" "$work/$run.out" "$work/$run.err"; then fail "$run: the value of $name was printed"; fi
  done
  assert_untouched "$work/$run"
}

# 1. Warm, coverage, HF_TOKEN passed.
repair warm --coverage --pass-env HF_TOKEN --json
check_records "$work/warm.record" "$work/warm" \
  'all(x["secrets"] == ["HF_TOKEN"] for x in r)' \
  'all(x["parent_secrets"] == ["HF_TOKEN"] for x in r)' \
  'all(x["tokenizers"] == "false" for x in r)' \
  '{kind(x) for x in r} == {"repo", "unpatched", "candidate"}' \
  'all(x["network"] == "connected" for x in r if kind(x) != "candidate")' \
  'all(x["network"].startswith("refused") for x in r if kind(x) == "candidate")'
"$PY" - "$work/warm.out" "$SECRET_NAMES" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
withheld = d["sandbox"]["withheld_env"]
assert set(sys.argv[2].split()) - {"HF_TOKEN"} <= set(withheld) and "HF_TOKEN" not in withheld, withheld
assert withheld == sorted(set(withheld)), withheld
assert d["sandbox"]["network"] == {"candidates": False, "reproduction": True, "slurm": False}, d["sandbox"]
assert d["stats"]["warm"], d["stats"]
assert any(c["validation"]["status"] == "plausible" for c in d["candidates"])
PY
first_plausible_diff "$work/warm.out" "$work/warm.diff" > "$work/warm.template"

# 2. Cold, nothing online.
repair cold --cold --no-network
check_records "$work/cold.record" "$work/cold" \
  'all(x["secrets"] == [] and x["parent_secrets"] == [] for x in r)' \
  '{kind(x) for x in r} == {"unpatched", "candidate"}' \
  'all(x["network"].startswith("refused") for x in r)'
grep -q "^sandbox: withheld .*ACTIONS_RUNTIME_TOKEN, .*GITHUB_TOKEN, .*HF_TOKEN, .*SMALLFIX_LLM_API_KEY.* from test runs" "$work/cold.out" \
  || fail "the text report does not name what was withheld: $(grep sandbox "$work/cold.out")"
grep -q "candidates ran offline (loopback only), the reproduction offline (loopback only)" "$work/cold.out" \
  || fail "the text report does not say the runs were offline: $(grep sandbox "$work/cold.out")"
grep -q "plausible patch ($(cat "$work/warm.template"):" "$work/cold.out" || fail "cold found another patch"

# 3. --allow-network: candidates online.
repair online --allow-network --json
check_records "$work/online.record" "$work/online" \
  'all(x["secrets"] == [] for x in r)' \
  'any(kind(x) == "candidate" for x in r)' \
  'all(x["network"] == "connected" for x in r)'
test "$(json "$work/online.out" 'd["sandbox"]["network"]["candidates"]')" = True || fail "--allow-network not reported"

# Bad input: a --pass-env that is no variable name, both network flags.
set +e
"$SMALLFIX" repair --repo "$work/warm" --site pipestage/clip.py:17 --no-validate --pass-env 'A=B' > /dev/null 2> "$work/bad.err"
rc1=$?
"$SMALLFIX" repair --repo "$work/warm" --site pipestage/clip.py:17 --no-validate --allow-network --no-network > /dev/null 2> "$work/both.err"
rc2=$?
set -e
test "$rc1" = 2 && grep -q -- "--pass-env A=B: expected the name of an environment variable" "$work/bad.err" \
  || fail "--pass-env A=B: exit $rc1, $(cat "$work/bad.err")"
test "$rc2" = 2 && grep -q -- "at most one of --allow-network and --no-network" "$work/both.err" \
  || fail "both network flags: exit $rc2, $(cat "$work/both.err")"
echo "repair runs project code without secrets, candidates offline ok"
