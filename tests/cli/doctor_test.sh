#!/usr/bin/env bash
# smallfix doctor: with everything here it says so and exits 0; a PATH without python3, an
# interpreter without torch and pytest, Slurm's commands missing for `runner: slurm` or a
# controller that does not answer, and an LLM server that is down are each named with how to
# get them, and exit 1; a Slurm and an LLM server that answer are ok; bad input exits 2.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/llm_lib.bash"

VENV_PY="$SRC/.venv/bin/python"
test -x "$VENV_PY" || fail "the project venv is missing (scripts/setup.sh makes it)"
mkdir -p "$work/repo"
printf 'test: python -m pytest -x tests/test_a.py\ntests: [python -m pytest -q tests]\n' > "$work/repo/.smallfix.yaml"

# doctor NAME ARGS...: stdout+stderr in $work/NAME.out, exit status in $rc.
doctor() {
  local name="$1"
  shift
  set +e
  "$SMALLFIX" doctor "$@" > "$work/$name.out" 2>&1
  rc=$?
  set -e
}
line() { grep -E "^  $1 +$2 " "$work/$3.out" > /dev/null || fail "$3: no '$1 $2' line: $(cat "$work/$3.out")"; }

# Everything here: the project venv's interpreter has torch, pytest and coverage.
doctor good --repo "$work/repo" --python "$VENV_PY" --world-size 2
test "$rc" = 0 || fail "good: exit $rc: $(cat "$work/good.out")"
for name in git templates "warm server" python torch pytest coverage torch.distributed tests; do line ok "$name" good; done
line - slurm good
line - llm good
grep -q "Everything a repair needs is here." "$work/good.out" || fail "$(cat "$work/good.out")"
test "$(wc -l < "$work/good.out")" -le 24 || fail "more than one screen: $(cat "$work/good.out")"

# A PATH without python3 (git alone on it), no --python: the default interpreter is missing.
mkdir "$work/gitonly"
ln -s "$(command -v git)" "$work/gitonly/git"
set +e
env PATH="$work/gitonly" "$SMALLFIX" doctor --repo "$work/repo" > "$work/nopython.out" 2>&1
rc=$?
set -e
test "$rc" = 1 || fail "no python3: exit $rc: $(cat "$work/nopython.out")"
line MISSING python nopython
grep -q "fix: install Python 3" "$work/nopython.out" || fail "no fix for python: $(cat "$work/nopython.out")"
grep -q "^Missing: python\." "$work/nopython.out" || fail "$(cat "$work/nopython.out")"

# An interpreter without torch, pytest or coverage (a bare venv), named in .smallfix.yaml.
/usr/bin/python3 -m venv --without-pip "$work/repo/bare"
printf 'interpreter: bare/bin/python\n' > "$work/repo/.smallfix.yaml"
doctor bare --repo "$work/repo"
test "$rc" = 1 || fail "bare venv: exit $rc: $(cat "$work/bare.out")"
line ok python bare
grep -q "bare/bin/python 3\.[0-9.]* (.smallfix.yaml)" "$work/bare.out" || fail "$(cat "$work/bare.out")"
line MISSING torch bare
line MISSING pytest bare
line warn coverage bare
grep -q "No module named 'torch'" "$work/bare.out" || fail "$(cat "$work/bare.out")"
grep -q "fix: $work/repo/bare/bin/python -m pip install pytest" "$work/bare.out" || fail "$(cat "$work/bare.out")"
line warn tests bare
grep -q "^Missing: torch, pytest\." "$work/bare.out" || fail "$(cat "$work/bare.out")"

# runner: slurm, and no Slurm command on PATH.
printf 'runner: slurm\ntest: python -m pytest -x t.py\n' > "$work/repo/.smallfix.yaml"
set +e
env PATH="$work/gitonly" "$SMALLFIX" doctor --repo "$work/repo" --python "$VENV_PY" > "$work/noslurm.out" 2>&1
rc=$?
set -e
test "$rc" = 1 || fail "no slurm: exit $rc: $(cat "$work/noslurm.out")"
grep -qE "^  MISSING +slurm +runner: slurm in .smallfix.yaml; not on PATH: sbatch, srun, scontrol, scancel" "$work/noslurm.out" \
  || fail "$(cat "$work/noslurm.out")"

# Slurm's commands as small scripts: a controller that answers, then one that does not.
mkdir "$work/slurm"
for command in sbatch srun scancel; do printf '#!/bin/sh\nexit 1\n' > "$work/slurm/$command"; done
printf '#!/bin/sh\necho "Slurmctld(primary) at head is ${SLURM_STATE:-UP}"\n' > "$work/slurm/scontrol"
chmod +x "$work/slurm"/*
set +e
env PATH="$work/slurm:$work/gitonly" "$SMALLFIX" doctor --repo "$work/repo" --python "$VENV_PY" > "$work/slurm.out" 2>&1
rc=$?
env PATH="$work/slurm:$work/gitonly" SLURM_STATE=DOWN "$SMALLFIX" doctor --repo "$work/repo" --python "$VENV_PY" --runner slurm > "$work/slurmdown.out" 2>&1
rc_down=$?
set -e
test "$rc" = 0 || fail "slurm up: exit $rc: $(cat "$work/slurm.out")"
line ok slurm slurm
line warn sacct slurm
test "$rc_down" = 1 || fail "slurm down: exit $rc_down: $(cat "$work/slurmdown.out")"
grep -qE "^  MISSING +slurm +scontrol ping: Slurmctld\(primary\) at head is DOWN" "$work/slurmdown.out" \
  || fail "$(cat "$work/slurmdown.out")"

# --llm: a server that lists the model, the same with a model it lacks, and one that is down.
rm "$work/repo/.smallfix.yaml"
start_llm up good
doctor llm --repo "$work/repo" --python "$VENV_PY" --llm "$URL_up"
test "$rc" = 0 || fail "llm up: exit $rc: $(cat "$work/llm.out")"
grep -qE "^  ok +llm +$URL_up: model loopback-model" "$work/llm.out" || fail "$(cat "$work/llm.out")"
doctor llmmodel --repo "$work/repo" --python "$VENV_PY" --llm "$URL_up/v1" --llm-model other
test "$rc" = 1 && grep -q "does not list other (it lists loopback-model)" "$work/llmmodel.out" || fail "$(cat "$work/llmmodel.out")"
stop_llm up
doctor llmdown --repo "$work/repo" --python "$VENV_PY" --llm "$URL_up"
test "$rc" = 1 || fail "llm down: exit $rc: $(cat "$work/llmdown.out")"
grep -qE "^  MISSING +llm +$URL_up/v1/models: " "$work/llmdown.out" || fail "$(cat "$work/llmdown.out")"

# Bad input.
doctor norepo --repo "$work/nothing"
test "$rc" = 2 && grep -q "^smallfix: --repo $work/nothing is not a directory" "$work/norepo.out" || fail "no repo: $rc $(cat "$work/norepo.out")"
printf 'runner: [x\n' > "$work/repo/.smallfix.yaml"
doctor badyaml --repo "$work/repo"
test "$rc" = 2 && grep -q "smallfix.yaml" "$work/badyaml.out" || fail "bad yaml: $rc $(cat "$work/badyaml.out")"
rm "$work/repo/.smallfix.yaml"
doctor badrunner --repo "$work/repo" --runner k8s
test "$rc" = 2 && grep -q "^smallfix: --runner k8s: expected local, torchrun or slurm" "$work/badrunner.out" || fail "bad runner: $rc $(cat "$work/badrunner.out")"
echo "doctor: OK"
