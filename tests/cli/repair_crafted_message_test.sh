#!/usr/bin/env bash
# Text read from a failure is untrusted (docs/threat-model.md): an issue's author writes the
# exception message, and templates fill placeholders from its groups (an attribute, keyword
# argument or module name). A crafted message that carries code in those names must not put that
# code into any candidate. For each kind of name, a benign message of the same shape first shows
# that the templates at the site do use the name (so the check below can fail); then crafted
# messages, given as --symptom and inside an issue's traceback, yield no candidate line holding
# the payload.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

repo="$work/repo"
mkdir -p "$repo/pkg"
cat > "$repo/pkg/__init__.py" <<'PYEOF'
PYEOF
cat > "$repo/pkg/train.py" <<'PYEOF'
import torch.distributed as dist


def step(model, optimizer, batch, config):
    grad = model.weight.grad
    norm = grad.norm()
    optimizer.step(closure=None, lr=config["lr"])
    dist.all_gather_into_tensor(batch, batch)
    return norm
PYEOF
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" -c user.name=e2e -c user.email=e2e@example.com commit -qm "train step"

PAYLOAD='__import__("os").system("touch /tmp/sfpwned")'
# Added lines of every candidate's diff (JSON on stdin), one per line.
added_lines() {
  "$PY" -c '
import json, sys
d = json.load(sys.stdin)
for c in d["candidates"]:
    for line in c["diff"].splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            print(c["template"], line)
'
}
candidates_for() {  # LINE SYMPTOM: the added lines of every candidate at pkg/train.py:LINE
  set +e
  "$SMALLFIX" repair --repo "$repo" --site "pkg/train.py:$1" --symptom "$2" --no-validate --json --max-candidates 0 \
    > "$work/out.json" 2> "$work/err"
  local rc=$?
  set -e
  test "$rc" = 0 || test "$rc" = 1 || fail "exit $rc for $2: $(cat "$work/err")"
  added_lines < "$work/out.json"
}
check_crafted() {  # LINE SYMPTOM
  local lines
  lines=$(candidates_for "$1" "$2")
  if grep -q -e 'sfpwned' -e '__import__' -e 'system(' <<< "$lines"; then
    fail "a crafted message reached a candidate: $2
$(grep -e sfpwned -e __import__ -e 'system(' <<< "$lines")"
  fi
  echo "crafted ok ($(wc -l <<< "$lines") added line(s)): $2"
}

# Each benign check reads the whole candidate list before grep -q: piped, grep -q stops at its
# first match and the writer dies of a broken pipe, which pipefail makes a failure.
# Attribute names: a benign one is used by the templates at line 6.
grep -q <<< "$(candidates_for 6 "AttributeError: 'NoneType' object has no attribute 'norm'")" 'if grad is not None\|grad is None' \
  || fail "no None guard for the benign attribute message"
check_crafted 6 "AttributeError: 'NoneType' object has no attribute 'norm; $PAYLOAD'"
check_crafted 6 "AttributeError: 'NoneType' object has no attribute '$PAYLOAD'"
check_crafted 6 "AttributeError: 'Tensor' object has no attribute 'norm\\n$PAYLOAD'"

# Keyword argument names: a benign one is dropped by a param template at line 7.
grep -q <<< "$(candidates_for 7 "TypeError: step() got an unexpected keyword argument 'lr'")" '^param\.' \
  || fail "no param candidate for the benign keyword message"
check_crafted 7 "TypeError: step() got an unexpected keyword argument 'lr=$PAYLOAD'"
check_crafted 7 "TypeError: step() got an unexpected keyword argument 'lr'), $PAYLOAD, ('"
check_crafted 7 "TypeError: $PAYLOAD() got an unexpected keyword argument 'lr'"
check_crafted 7 "KeyError: 'lr\"], $PAYLOAD, config[\"lr'"

# Module and attribute names of a module: a benign one gets a compat candidate at line 8.
grep -q <<< "$(candidates_for 8 "AttributeError: module 'torch.distributed' has no attribute 'all_gather_into_tensor'")" '^compat\.' \
  || fail "no compat candidate for the benign module attribute message"
check_crafted 8 "AttributeError: module 'torch.distributed' has no attribute 'all_gather_into_tensor; $PAYLOAD'"
check_crafted 8 "AttributeError: module 'torch.distributed; $PAYLOAD' has no attribute 'all_gather_into_tensor'"
check_crafted 1 "ModuleNotFoundError: No module named 'torch.distributed; $PAYLOAD'"
check_crafted 1 "ImportError: cannot import name '$PAYLOAD' from 'torch.distributed'"

# The same through an issue: a traceback whose frames and message carry the payload.
cat > "$work/issue.md" <<ISSUE
Training crashes:

\`\`\`
Traceback (most recent call last):
  File "pkg/train.py", line 6, in step; $PAYLOAD
    norm = grad.norm()
AttributeError: 'NoneType' object has no attribute 'norm; $PAYLOAD'
\`\`\`
ISSUE
set +e
"$SMALLFIX" repair --repo "$repo" --issue "$work/issue.md" --no-validate --json --max-candidates 0 > "$work/issue.json" 2> "$work/issue.err"
rc=$?
set -e
test "$rc" = 0 || test "$rc" = 1 || fail "issue: exit $rc: $(cat "$work/issue.err")"
if added_lines < "$work/issue.json" | grep -q -e sfpwned -e __import__ -e 'system('; then
  fail "a crafted issue reached a candidate: $(added_lines < "$work/issue.json" | grep -e sfpwned -e __import__)"
fi
test -z "$(git -C "$repo" status --porcelain)" || fail "the repo changed"
test ! -e /tmp/sfpwned || fail "the payload ran"
echo "crafted exception messages never reach a candidate ok"
