#!/usr/bin/env bash
# End to end: a guard bug repaired from the failure a user pasted into an issue.
# tests/data/repair/guard_clip_frozen: a pipeline stage's clip_grad_norm_ reads p.grad of a frozen
# embedding (None). `smallfix repair --issue` must localize it, validate a guard in a worktree
# with real pytest, and report a plausible candidate whose diff applies with `git apply` and makes
# the failing test pass when run by hand. The user's tree, worktrees and branches stay as they were.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
head_before=$(git -C "$work/repo" rev-parse HEAD)

set +e
"$SMALLFIX" repair --repo "$work/repo" --issue "$DATA/$NAME/issue.md" \
  --test "$FAILING" --test "$ALL" --timeout 120 --json > "$work/out.json" 2> "$work/err"
rc=$?
set -e
cat "$work/err" >&2
test "$rc" = 0 || fail "expected exit 0 (a plausible patch), got $rc"

# The failure was reproduced on the unpatched tree and localized to the line that reads p.grad.
test "$(json "$work/out.json" 'd["stats"]["reproduced"]')" = True || fail "the failure was not reproduced"
json "$work/out.json" 'd["sites"][0]["file"] + ":" + str(d["sites"][0]["line"])' | grep -qx 'pipestage/clip.py:17' \
  || fail "top site: $(json "$work/out.json" 'd["sites"][:1]')"
template=$(first_plausible_diff "$work/out.json" "$work/fix.diff")
echo "plausible: $template"
cat "$work/fix.diff"
# Every stage of the winner passed: syntax, compile, the failing test, the regression run.
"$PY" - "$work/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = next(c for c in d["candidates"] if c["validation"]["status"] == "plausible")
stages = {s["name"]: s["status"] for s in c["validation"]["stages"]}
assert stages == {"syntax": "passed", "compile": "passed", "test": "passed", "regression": "passed"}, stages
assert c["family"] == "guard", c["family"]
assert c["file"] == "pipestage/clip.py", c["file"]
# Rank order: nothing ranked above the winner was left unvalidated.
for other in d["candidates"]:
    if other["rank"] < c["rank"]:
        assert other["validation"]["status"] in ("failed", "error", "timeout"), other
assert d["stats"]["first_plausible_seconds"] > 0 and d["stats"]["reproduction_seconds"] > 0, d["stats"]
PY

# The user's tree is untouched: same HEAD, clean status, no worktree, branch or scratch left.
test "$(git -C "$work/repo" rev-parse HEAD)" = "$head_before" || fail "HEAD moved"
assert_untouched "$work/repo"

# By hand, in a clone: the failing test fails, the diff applies with git apply, then it passes,
# and so does the whole suite.
git clone -q "$work/repo" "$work/byhand"
(cd "$work/byhand" && ! "$PY" -m pytest -q -x -p no:cacheprovider tests/test_clip.py::test_clip_with_frozen_embedding > /dev/null) \
  || fail "the failing test passes on the unpatched clone"
git -C "$work/byhand" apply --check "$work/fix.diff"
git -C "$work/byhand" apply "$work/fix.diff"
(cd "$work/byhand" && "$PY" -m pytest -q -x -p no:cacheprovider tests/test_clip.py::test_clip_with_frozen_embedding) \
  || fail "the failing test still fails with the patch applied by hand"
(cd "$work/byhand" && "$PY" -m pytest -q -p no:cacheprovider tests) || fail "the suite fails with the patch"

print_timing guard "$work/out.json"
echo "repair guard e2e ok"
