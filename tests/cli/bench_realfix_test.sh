#!/usr/bin/env bash
# smallfix bench --realfix on fixtures made here: two tiny projects with a buggy commit and its
# fix, one as a bare mirror (OWNER+NAME/repo) and one as a plain clone (OWNER/NAME). A guard
# template reproduces the first fix; no template writes the second; a third fix names a commit
# the mirror lacks and is counted as an error. Bad fix lines are refused naming the line.
set -euo pipefail
SMALLFIX="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git_() { git -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c init.defaultBranch=main "$@"; }

# Project one: the fix inserts a None guard before line 4.
mkdir -p "$work/src/one/pkg"
cd "$work/src/one"
git_ init -q
cat > pkg/reduce.py <<'PY'
def bucket(params):
    out = []
    for p in params:
        n = p.grad.numel()
        out.append(n)
    return out
PY
echo "x = 1" > pkg/__init__.py
git_ add -A && git_ commit -qm buggy
cat > pkg/reduce.py <<'PY'
def bucket(params):
    out = []
    for p in params:
        # frozen parameters have no gradient
        if p.grad is None:
            continue
        n = p.grad.numel()
        out.append(n)
    return out
PY
git_ commit -qam fix
one_parent=$(git rev-parse HEAD~1) one_fix=$(git rev-parse HEAD)
mkdir -p "$work/mirrors/acme+one"
git_ clone -q --mirror "$work/src/one" "$work/mirrors/acme+one/repo"

# Project two (a plain clone): the fix sorts the result, which no template writes.
mkdir -p "$work/mirrors/acme/two/lib"
cd "$work/mirrors/acme/two"
git_ init -q
printf 'def names(table):\n    out = list(table)\n    return out\n' > lib/names.py
git_ add -A && git_ commit -qm buggy
printf 'def names(table):\n    out = list(table)\n    return sorted(out)\n' > lib/names.py
git_ commit -qam fix
two_parent=$(git rev-parse HEAD~1) two_fix=$(git rev-parse HEAD)
cd "$work"

missing=0123456789abcdef0123456789abcdef01234567
cat > fixes.jsonl <<JSON
{"id": "one-guard", "repo": "acme/one", "fix_commit": "$one_fix", "parent_commit": "$one_parent", "file": "pkg/reduce.py", "fault_lines": [4], "family": "guard", "description": "skip parameters without a gradient", "symptom": "AttributeError: 'NoneType' object has no attribute 'numel'", "split": "test"}
{"id": "two-sort", "repo": "acme/two", "fix_commit": "$two_fix", "parent_commit": "$two_parent", "file": "lib/names.py", "fault_lines": [3], "family": "other", "description": "return the names sorted", "symptom": null, "split": "test"}
{"id": "one-missing", "repo": "acme/one", "fix_commit": "$missing", "parent_commit": "$missing", "file": "pkg/reduce.py", "fault_lines": [1], "family": "param", "description": "a commit the mirror lacks", "symptom": null, "split": "dev"}
JSON

"$SMALLFIX" bench --realfix --mirror-root "$work/mirrors" --fixes fixes.jsonl --jobs 2 \
  --json out.json --markdown out.md > stdout.txt 2> stderr.txt
grep -q "realfix" stdout.txt
grep -q "one-guard" stderr.txt  # the progress names each fix

/usr/bin/python3 - out.json <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
t = out["totals"]
assert t["fixes"] == 3 and t["errors"] == 1 and t["symptom_given"] == 1, t
w, wo = t["with_symptom"], t["without_symptom"]
# The guard fix is found with its symptom; the sort fix by no condition.
assert w["correct_at_10"] == 1 and w["correct_at_5"] == 1, w
assert w["with_candidate"] + w["no_candidate"] == 2, w
assert wo["correct_at_10"] <= 1, wo
fixes = {f["id"]: f for f in out["fixes"]}
assert fixes["one-guard"]["with_symptom"]["rank"] is not None, fixes["one-guard"]
assert fixes["one-guard"]["with_symptom"]["template"].startswith("guard."), fixes["one-guard"]
assert fixes["one-guard"]["files"] == 2, fixes["one-guard"]
assert fixes["two-sort"]["with_symptom"]["rank"] is None and fixes["two-sort"]["without_symptom"]["rank"] is None
assert "is not in" in fixes["one-missing"]["error"], fixes["one-missing"]
assert out["by_family"]["guard"]["with_symptom"]["correct_at_1"] <= 1
assert out["by_family"]["other"]["with_symptom"]["correct_at_10"] == 0
assert set(out["by_project"]) == {"acme/one", "acme/two"}, out["by_project"]
assert out["by_split"]["dev"]["errors"] == 1 and out["by_split"]["test"]["fixes"] == 2
PY
grep -q "### By family" out.md
grep -q "| acme/two | 1 |" out.md

# --split keeps only that split.
"$SMALLFIX" bench --realfix --split dev --mirror-root "$work/mirrors" --fixes fixes.jsonl --json dev.json >/dev/null 2>&1
/usr/bin/python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert [f["id"] for f in o["fixes"]] == ["one-missing"], o' dev.json

# --fix keeps the named fixes; --min-fault-lines 2 those with two or more lines (none here);
# an unknown id is refused naming it.
"$SMALLFIX" bench --realfix --fix two-sort --fix one-missing --mirror-root "$work/mirrors" --fixes fixes.jsonl --json some.json >/dev/null 2>&1
/usr/bin/python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert [f["id"] for f in o["fixes"]] == ["two-sort", "one-missing"], o' some.json
"$SMALLFIX" bench --realfix --min-fault-lines 2 --mirror-root "$work/mirrors" --fixes fixes.jsonl --json multi.json >/dev/null 2>&1
/usr/bin/python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["fixes"] == [], o' multi.json
set +e
"$SMALLFIX" bench --realfix --fix nosuch --mirror-root "$work/mirrors" --fixes fixes.jsonl >/dev/null 2>err.txt; rc=$?
set -e
test "$rc" = 2 || { echo "expected exit 2 for an unknown --fix, got $rc"; exit 1; }
grep -q "fix nosuch: no such fix" err.txt || { cat err.txt; exit 1; }

# The mirror is untouched.
test -z "$(git -C "$work/mirrors/acme/two" status --porcelain)"

# A bad line is refused with its line number; an unknown split by the flag parser.
sed '2s/"family": "other"/"family": "typo"/' fixes.jsonl > bad.jsonl
set +e
"$SMALLFIX" bench --realfix --mirror-root "$work/mirrors" --fixes bad.jsonl >/dev/null 2>err.txt; rc=$?
set -e
test "$rc" = 2 || { echo "expected exit 2 for a bad fixes line, got $rc"; exit 1; }
grep -q "bad.jsonl:2: .family. typo" err.txt || { cat err.txt; exit 1; }
"$SMALLFIX" bench --realfix --split nope --fixes fixes.jsonl >/dev/null 2>&1 && exit 1
echo "bench --realfix ok"
