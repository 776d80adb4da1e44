#!/usr/bin/env bash
# smallfix scan end to end: JSON and SARIF over the annotated fixtures, findings whose diffs
# apply with git apply, and bad input (a missing directory, a broken template, a non-UTF-8
# file) answered with a clear message and the contract's exit status.
set -euo pipefail
SMALLFIX="$1"
SRC="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r "$SRC/tests/data/scan/repo" "$work/repo"
printf '# caf\xe9\nif x == None:\n    pass\n' > "$work/repo/latin1.py"

rc=0
"$SMALLFIX" scan --repo "$work/repo" --jobs 2 --json > "$work/out.json" 2> "$work/err.txt" || rc=$?
[[ $rc == 0 ]] || { echo "scan --json exited $rc"; cat "$work/err.txt"; exit 1; }
grep -q "latin1.py" "$work/err.txt" || { echo "no note about the non-UTF-8 file:"; cat "$work/err.txt"; exit 1; }

/usr/bin/python3 - "$work/out.json" "$work" <<'PY'
import json, os, subprocess, sys
out = json.load(open(sys.argv[1]))
work = sys.argv[2]
found = {(f["file"], f["line"], f["template"]) for f in out["findings"]}
assert ("pkg/masks.py", 10, "guard.eq-none-is") in found, found
assert ("pkg/groups.py", 6, "param.mutable-default") in found, found
assert ("pkg/groups.py", 2, "compat.import-fallback") in found, found
assert not any(f[0] == "latin1.py" for f in found), found
assert out["stats"]["files"] == 4 and out["stats"]["findings"] == len(out["findings"]), out["stats"]
assert any("latin1.py" in note for note in out["notes"]), out["notes"]
# Each finding's diff applies on its own at the repo root.
for f in out["findings"]:
    subprocess.run(["git", "apply", "--check", "--directory=", "-"], input=f["diff"].encode(),
                   cwd=os.path.join(work, "repo"), check=True)
PY

"$SMALLFIX" scan --repo "$work/repo" --sarif "$work/out.sarif" 2>/dev/null
/usr/bin/python3 - "$work/out.sarif" "$work/out.json" <<'PY'
import json, sys
sarif = json.load(open(sys.argv[1]))
findings = json.load(open(sys.argv[2]))["findings"]
assert sarif["version"] == "2.1.0"
run = sarif["runs"][0]
assert len(run["results"]) == len(findings), (len(run["results"]), len(findings))
rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
assert rules == {f["template"] for f in findings}, rules
for result in run["results"]:
    assert result["fixes"][0]["artifactChanges"][0]["replacements"], result
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
PY

# Bad input: exit 2 with a message naming what is wrong.
rc=0
"$SMALLFIX" scan --repo "$work/missing" > /dev/null 2> "$work/err.txt" || rc=$?
[[ $rc == 2 ]] && grep -q "no such directory" "$work/err.txt" || { echo "missing dir: rc=$rc"; cat "$work/err.txt"; exit 1; }

mkdir -p "$work/templates/guard"
cp "$SRC/templates/guard/eq_none_is.yaml" "$work/templates/guard/"
sed -i "s/^  filter: .*/  filter: 'a('/" "$work/templates/guard/eq_none_is.yaml"
rc=0
"$SMALLFIX" scan --repo "$work/repo" --templates "$work/templates" > /dev/null 2> "$work/err.txt" || rc=$?
[[ $rc == 2 ]] && grep -q "eq_none_is.yaml:.*scan filter: bad regex" "$work/err.txt" \
  || { echo "broken template: rc=$rc"; cat "$work/err.txt"; exit 1; }

# Nothing to find: exit 1, and a text report that says so.
mkdir -p "$work/clean" && cp "$SRC/tests/data/scan/repo/pkg/clean.py" "$work/clean/"
rc=0
"$SMALLFIX" scan --repo "$work/clean" > "$work/out.txt" || rc=$?
[[ $rc == 1 ]] && grep -q "^0 finding(s) in 1 file(s)" "$work/out.txt" || { echo "clean: rc=$rc"; cat "$work/out.txt"; exit 1; }

# FILE arguments (a pre-commit hook's changed files) and --check: only those files, with the
# findings a whole-repo scan gives them; exit 1 on findings, 0 without; a file outside --repo
# is refused.
rc=0
(cd "$work/repo" && "$SMALLFIX" scan --repo . --check pkg/groups.py ./pkg/clean.py) > "$work/files.txt" || rc=$?
[[ $rc == 1 ]] || { echo "--check with findings: rc=$rc"; cat "$work/files.txt"; exit 1; }
grep -q "^pkg/groups.py:6:.*\[param.mutable-default\]" "$work/files.txt" || { cat "$work/files.txt"; exit 1; }
grep -q "^pkg/groups.py:2:.*\[compat.import-fallback\]" "$work/files.txt" || { cat "$work/files.txt"; exit 1; }
! grep -q "pkg/masks.py" "$work/files.txt" || { echo "a file not named was scanned"; exit 1; }
grep -q "in 2 file(s)" "$work/files.txt" || { cat "$work/files.txt"; exit 1; }
"$SMALLFIX" scan --repo "$work/repo" --check "$work/repo/pkg/clean.py" > "$work/clean.txt" \
  || { echo "--check on a clean file failed"; cat "$work/clean.txt"; exit 1; }
rc=0
"$SMALLFIX" scan --repo "$work/repo" --check "$work/clean/clean.py" > /dev/null 2> "$work/err.txt" || rc=$?
[[ $rc == 2 ]] && grep -q "clean.py is outside --repo" "$work/err.txt" || { echo "outside: rc=$rc"; cat "$work/err.txt"; exit 1; }
echo "scan CLI ok"
