#!/usr/bin/env bash
# smallfix repair --site ... --no-validate --json on a benchmark bug's project: the guard
# template's candidate is listed, its diff applies with git apply, and gives the same file as
# the reference fix. The user's tree is left untouched.
set -euo pipefail
SMALLFIX="$1"
SRC="$2"
BUG="$SRC/benchmarks/smallfix/bugs/guard-none-grad-skip"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r "$BUG/project" "$work/repo"
git -C "$work/repo" init -q && git -C "$work/repo" add -A && git -C "$work/repo" -c user.name=t -c user.email=t@t commit -qm buggy

"$SMALLFIX" repair --repo "$work/repo" --site minizero/reduce.py:28 \
  --symptom "AttributeError: 'NoneType' object has no attribute 'numel'" \
  --no-validate --json > "$work/out.json"

# The tree is untouched.
test -z "$(git -C "$work/repo" status --porcelain)" || { echo "repair changed the user's tree"; exit 1; }

/usr/bin/python3 - "$work/out.json" "$work/first.diff" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
ids = [c["template"] for c in out["candidates"]]
assert "guard.none-continue" in ids, ids
assert out["candidates"][0]["rank"] == 1
assert out["sites"][0] == {**out["sites"][0], "file": "minizero/reduce.py", "line": 28}, out["sites"]
assert out["stats"]["candidates"] >= 1
first = next(c for c in out["candidates"] if c["template"] == "guard.none-continue")
assert first["validation"]["status"] == "skipped"
open(sys.argv[2], "w").write(first["diff"])
PY

git -C "$work/repo" apply --check "$work/first.diff"
git -C "$work/repo" apply "$work/first.diff"
cp -r "$BUG/project" "$work/reference"
git -C "$work/reference" apply "$BUG/fix.diff" 2>/dev/null || (cd "$work/reference" && patch -p1 -s < "$BUG/fix.diff")
diff -u "$work/reference/minizero/reduce.py" "$work/repo/minizero/reduce.py"

# --one-fix: two lines of one fix; candidates that edit both come first (a move of one before
# the other, both removed, ...). Without --site it is refused.
git -C "$work/repo" checkout -q -- .
"$SMALLFIX" repair --repo "$work/repo" --site minizero/reduce.py:28 --site minizero/reduce.py:33 --one-fix \
  --no-validate --json > "$work/joint.json"
/usr/bin/python3 - "$work/joint.json" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
ids = [c["template"] for c in out["candidates"]]
assert ids[0].startswith("multi."), ids
assert "multi.move-statement" in ids and "multi.remove-statements" in ids, ids
multi = [c for c in out["candidates"] if c["template"].startswith("multi.")]
assert ids[:len(multi)] == [c["template"] for c in multi], ids  # all before the single-line ones
removal = next(c for c in multi if c["template"] == "multi.remove-statements")
changed = [l for l in removal["diff"].splitlines() if l[:1] in "+-" and l[:3] not in ("+++", "---")]
assert changed == ["-            numel = p.grad.numel()", "-            current_numel += numel"], changed
PY
set +e
"$SMALLFIX" repair --repo "$work/repo" --log "$work/out.json" --one-fix --no-validate >/dev/null 2>"$work/err"; rc=$?
set -e
test "$rc" = 2 || { echo "expected exit 2 for --one-fix without --site, got $rc"; exit 1; }
grep -q -- "--one-fix needs --site" "$work/err"

# Bad input: exit 2 with a message.
set +e
"$SMALLFIX" repair --repo "$work/nope" --site a.py:1 --no-validate >/dev/null 2>"$work/err"; rc=$?
set -e
test "$rc" = 2 || { echo "expected exit 2 for a missing repo, got $rc"; exit 1; }
grep -q "not a directory" "$work/err"
"$SMALLFIX" repair --repo "$work/repo" --site minizero/reduce.py:notaline --no-validate >/dev/null 2>"$work/err" && exit 1
grep -q "FILE:LINE" "$work/err"
echo "repair --site ok"
