#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml) under a real pre-commit (exact pins in
# tests/precommit/requirements.txt, in a throwaway venv): a commit that plants a mutable
# default is refused with the finding and the template's proposed edit printed; a clean change
# commits; only the changed files are scanned (an old finding elsewhere does not block).
# Skipped (exit 77) when pre-commit cannot be installed (no package index reachable).
set -euo pipefail
SMALLFIX="$1"
SRC="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

/usr/bin/python3 -m venv "$work/venv"
if ! "$work/venv/bin/pip" install -q --disable-pip-version-check --no-deps \
    -r "$SRC/tests/precommit/requirements.txt" > "$work/pip.log" 2>&1; then
  echo "SKIP: pre-commit could not be installed: $(tail -3 "$work/pip.log")"
  exit 77
fi
export PRE_COMMIT_HOME="$work/pre-commit-home"
# The hook runs the smallfix on PATH, as it would after pip install smallfix.
export PATH="$(dirname "$SMALLFIX"):$PATH"
git_() { git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main "$@"; }

# The hook's repository: this tree's .pre-commit-hooks.yaml, committed (pre-commit clones a rev).
mkdir "$work/hooks"
cp "$SRC/.pre-commit-hooks.yaml" "$work/hooks/"
git_ -C "$work/hooks" init -q
git_ -C "$work/hooks" add -A
git_ -C "$work/hooks" commit -qm hooks
rev=$(git -C "$work/hooks" rev-parse HEAD)

mkdir -p "$work/proj/pkg"
cd "$work/proj"
git_ init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks: [{id: smallfix-scan}]
YAML
# An old finding the commits below do not touch.
printf 'def old(x):\n    if x == None:\n        return 0\n    return x\n' > pkg/old.py
printf 'def total(xs):\n    return sum(xs)\n' > pkg/mod.py
git_ add -A
git_ commit -qm "base" --no-verify
"$work/venv/bin/pre-commit" install > /dev/null

# A planted mutable default: the commit is refused, the finding and its edit are printed.
printf 'def total(xs, seen=[]):\n    seen.append(len(xs))\n    return sum(xs)\n' > pkg/mod.py
git_ add pkg/mod.py
set +e
git_ commit -qm "plant" > "$work/planted.out" 2>&1
rc=$?
set -e
test "$rc" != 0 || fail "the commit with a mutable default went through: $(cat "$work/planted.out")"
grep -q "smallfix scan.*Failed" "$work/planted.out" || fail "the hook did not fail: $(cat "$work/planted.out")"
grep -q "^pkg/mod.py:1:.*\[param.mutable-default\]" "$work/planted.out" || fail "no finding: $(cat "$work/planted.out")"
grep -q "^+def total(xs, seen=None):" "$work/planted.out" || fail "no proposed edit: $(cat "$work/planted.out")"
! grep -q "pkg/old.py" "$work/planted.out" || fail "an unchanged file was scanned: $(cat "$work/planted.out")"
test "$(git log --oneline | wc -l)" = 1 || fail "a commit was made"

# A clean change commits.
printf 'def total(xs, start=0):\n    return start + sum(xs)\n' > pkg/mod.py
git_ add pkg/mod.py
git_ commit -qm "clean" > "$work/clean.out" 2>&1 || fail "a clean commit was refused: $(cat "$work/clean.out")"
test "$(git log --oneline | wc -l)" = 2 || fail "the clean commit is missing"
echo "pre-commit hook: OK"
