#!/usr/bin/env bash
# The GitHub Action (action.yml) and the example workflow that uses it: the YAML's structure
# (a composite action; every input declared, described and used; inputs reach the scripts as
# environment variables only, never pasted into a script; the workflow's `with:` keys are
# inputs), then the repair step's script run as the runner would run it, with smallfix on PATH,
# against the loopback fake GitHub: the inputs become the bot's flags (a dry run repairs the
# issue with the `test`/`tests` inputs where the repository's .smallfix.yaml names none).
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/bot_lib.bash"

"$PY" - "$SRC/action.yml" "$SRC/.github/workflow-examples/smallfix-bot.yml" "$SRC/scripts/action-bot.sh" <<'PY' || fail "action.yml or the example workflow"
import re, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
workflow = yaml.safe_load(open(sys.argv[2]))
script = open(sys.argv[3]).read()
for key in ("name", "description", "inputs", "runs"):
    assert key in action, "action.yml has no " + key
assert action["runs"]["using"] == "composite", action["runs"]
inputs = action["inputs"]
for name, spec in inputs.items():
    assert spec.get("description"), "input %s has no description" % name
text = open(sys.argv[1]).read()
used = set(re.findall(r"\$\{\{[^}]*?\binputs\.([A-Za-z0-9_-]+)", text))
assert used == set(inputs), ("declared but unused", set(inputs) - used, "used but undeclared", used - set(inputs))
steps = action["runs"]["steps"]
assert steps, "no steps"
for step in steps:
    if "run" in step:
        assert step.get("shell") == "bash", step
        assert "${{" not in step["run"], "an expression pasted into a script: %r" % step["run"]
        for var in step.get("env", {}):
            if var in ("GITHUB_TOKEN",):
                continue
            assert re.search(r"\$\{?%s\b" % var, step["run"] + script), "env %s is never read" % var
jobs = workflow["jobs"]
uses = [s for job in jobs.values() for s in job["steps"] if re.search(r"/smallfix@", s.get("uses", ""))]
assert len(uses) == 1, "the example workflow does not use the action by reference"
unknown = set(uses[0].get("with", {})) - set(inputs)
assert not unknown, "the workflow passes inputs the action lacks: %s" % unknown
triggers = workflow.get(True, workflow.get("on"))  # YAML 1.1 reads the key `on` as true
for trigger in ("issues", "schedule"):
    assert trigger in triggers, trigger
PY
bash -n "$SRC/scripts/action-bot.sh" || fail "scripts/action-bot.sh does not parse"

# The repair step against the fake: a repository whose .smallfix.yaml names no tests.
BUG=param-cast-str-env
make_remote "$BUG"
failing=$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["tests"]["failing"])' "$BENCH/$BUG/bug.yaml")
passing=$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["tests"]["passing"])' "$BENCH/$BUG/bug.yaml")
printf 'timeout: 300\n' > "$work/seed/.smallfix.yaml"
git -C "$work/seed" -c user.name=Alice -c user.email=alice@example.com commit -qam "no test commands"
git -C "$work/seed" push -q "$work/git/remote.git" main
"$PY" - "$BENCH/$BUG" "file://$work/git/remote.git" "$work/git/remote.git" > "$work/seed.json" <<'PY'
import json, sys, yaml
bug = yaml.safe_load(open(sys.argv[1] + "/bug.yaml"))
print(json.dumps({"prefix": "/api/v3",
                  "repos": {"acme/launch": {"default_branch": "main", "clone_url": sys.argv[2], "git_dir": sys.argv[3]}},
                  "issues": {"acme/launch": [{"number": 1, "title": bug["title"], "body": open(sys.argv[1] + "/issue.md").read(), "labels": ["smallfix"]}]}}))
PY
start_github "$(cat "$work/seed.json")"

# step NAME VAR=VALUE...: the repair step's script with the action's environment.
step() {
  local name="$1"
  shift
  set +e
  # Every input the step sets, so that none leaks in from the caller's environment (TESTS does).
  env PATH="$(dirname "$SMALLFIX"):$PATH" REPOSITORY=acme/launch API_URL="$API" LABEL=smallfix LIMIT=5 \
    PR_LABEL=smallfix DRY_RUN=true PYTHON="$(command -v python3)" ISSUE= TEST= TESTS= "$@" \
    bash "$SRC/scripts/action-bot.sh" > "$work/$name.out" 2> "$work/$name.err"
  rc=$?
  set -e
}
step notests
test "$rc" = 0 || fail "without tests: exit $rc: $(cat "$work/notests.err")"
grep -q "^#1: not repaired" "$work/notests.out" || fail "without tests: $(cat "$work/notests.out")"

step inputs ISSUE=1 TEST="$failing" TESTS="$(printf '%s\n\n' "$passing")"
test "$rc" = 0 || fail "with test inputs: exit $rc: $(cat "$work/inputs.err")"
grep -q "^#1: would open a pull request: Fix #1: " "$work/inputs.out" || fail "with test inputs: $(cat "$work/inputs.out")"
test "$(requests "sum(1 for x in r if x['method'] != 'GET')")" = 0 || fail "the dry run wrote to GitHub"

step onlytests ISSUE=1 TESTS="$passing"
test "$rc" = 2 && grep -q "'tests' needs 'test'" "$work/onlytests.err" || fail "tests without test: exit $rc"
assert_token_secret -
echo "action: OK"
