#!/usr/bin/env bash
# End to end: a param bug repaired from a pasted issue, with --sarif, --apply and --jobs.
# tests/data/repair/param_tp_init_seed: ColumnParallelLinear calls init_shard_(...) over several
# lines without the `seed` that the callee gained; `seed` is a parameter in scope. Checks:
#   - exit 0 and a plausible param candidate that adds the argument inside the multi-line call;
#   - --sarif writes SARIF 2.1.0 whose fix, applied to the file, gives the patched file;
#   - the tree is untouched without --apply;
#   - --jobs 2 gives the same first plausible patch as --jobs 1;
#   - --apply writes the plausible patch into a clean working tree, and the test then passes there;
#   - --apply on a dirty tree (a tracked file modified) is refused with exit 2, the file left as it was.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=param_tp_init_seed
FAILING="python -m pytest -q -x tests/test_layers.py::test_column_parallel_matches_dense"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
repo="$work/repo"

run_repair() {  # run_repair OUT.json EXTRA_FLAGS... ; sets rc
  local out="$1"
  shift
  set +e
  "$SMALLFIX" repair --repo "$repo" --issue "$DATA/$NAME/issue.md" --test "$FAILING" --test "$ALL" \
    --timeout 120 --json "$@" > "$out" 2> "$out.err"
  rc=$?
  set -e
  cat "$out.err" >&2
}

# 1. Plain repair with --sarif, --jobs 1.
run_repair "$work/j1.json" --jobs 1 --sarif "$work/out.sarif"
test "$rc" = 0 || fail "expected exit 0, got $rc"
template=$(first_plausible_diff "$work/j1.json" "$work/fix.diff")
echo "plausible: $template"
cat "$work/fix.diff"
case "$template" in param.*) ;; *) fail "expected a param template, got $template" ;; esac
# The argument is added inside the multi-line call, which still spans several lines.
grep -qE '^\+ +seed(=seed)?,$' "$work/fix.diff" || fail "the diff does not pass seed inside the call"
test "$(grep -c '^[-+][^-+]' "$work/fix.diff")" = 1 || fail "expected a one-line fix"
assert_untouched "$repo"

"$PY" - "$work/out.sarif" "$work/j1.json" "$repo" <<'PY'
import json, os, sys
sarif = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
repo = sys.argv[3]
assert sarif["version"] == "2.1.0", sarif.get("version")
assert "sarif-2.1.0" in sarif["$schema"], sarif["$schema"]
run = sarif["runs"][0]
assert run["tool"]["driver"]["name"] == "smallfix"
rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
results = run["results"]
assert len(results) == len(report["candidates"]), (len(results), len(report["candidates"]))
for result in results:
    assert result["ruleId"] in rules, result["ruleId"]
    assert result["fixes"] and result["fixes"][0]["artifactChanges"], result
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "tplayers/layers.py" and loc["region"]["startLine"] >= 1, loc
# The plausible result's fix, applied to the buggy file, is the patched file of the JSON's diff.
winner = next(c for c in report["candidates"] if c["validation"]["status"] == "plausible")
result = next(r for r in results if r["properties"]["validation"] == "plausible")
assert result["ruleId"] == winner["template"] and result["level"] == "error", result
change = result["fixes"][0]["artifactChanges"][0]
lines = open(os.path.join(repo, change["artifactLocation"]["uri"])).read().splitlines(keepends=True)
for rep in change["replacements"]:
    region = rep["deletedRegion"]
    assert region["startColumn"] == 1 and region["endColumn"] == 1, region
    lines[region["startLine"] - 1:region["endLine"] - 1] = [rep["insertedContent"]["text"]]
open(os.path.join(os.path.dirname(sys.argv[1]), "sarif_fixed.py"), "w").write("".join(lines))
PY
git clone -q "$repo" "$work/byhand"
git -C "$work/byhand" apply "$work/fix.diff"
diff -u "$work/byhand/tplayers/layers.py" "$work/sarif_fixed.py" || fail "the SARIF fix differs from the diff"
(cd "$work/byhand" && "$PY" -m pytest -q -p no:cacheprovider tests) || fail "the suite fails with the patch"
print_timing param "$work/j1.json"

# 2. --jobs 2 with --apply on the clean tree: the same winner, written into the working tree.
# Candidate 2 is cancelled here when candidate 1 wins: the early return of a cancelled run
# once crashed (two structs named TestRun, an ODR violation; there is one now).
run_repair "$work/j2.json" --jobs 2 --apply
test "$rc" = 0 || fail "--apply on a clean tree: expected exit 0, got $rc"
grep -q "applied $template" "$work/j2.json.err" || fail "no 'applied' message"
first_plausible_diff "$work/j2.json" "$work/fix2.diff" > "$work/template2"
test "$(cat "$work/template2")" = "$template" || fail "--jobs 2 picked $(cat "$work/template2"), --jobs 1 $template"
cmp "$work/fix.diff" "$work/fix2.diff" || fail "--jobs 2 gives another diff than --jobs 1"
test "$(json "$work/j2.json" 'd["stats"]["validated"]')" -le 2 || fail "too many validated"
git -C "$repo" diff > "$work/applied.diff"
test "$(git -C "$repo" status --porcelain)" = " M tplayers/layers.py" || fail "--apply changed: $(git -C "$repo" status --porcelain)"
cmp "$repo/tplayers/layers.py" "$work/byhand/tplayers/layers.py" || fail "--apply wrote another file than the diff"
(cd "$repo" && "$PY" -m pytest -q -x -p no:cacheprovider tests/test_layers.py::test_column_parallel_matches_dense) \
  || fail "the failing test still fails after --apply"
print_timing param-jobs2 "$work/j2.json"

# 3. --apply on a dirty tree: back to the buggy commit, then an uncommitted edit of a tracked file.
git -C "$repo" checkout -q -- .
echo "# local experiment, not committed" >> "$repo/tplayers/layers.py"
sha_before=$(sha256sum < "$repo/tplayers/layers.py")
run_repair "$work/dirty.json" --apply
test "$rc" = 2 || fail "--apply on a dirty tree: expected exit 2, got $rc"
grep -q "uncommitted changes (tplayers/layers.py)" "$work/dirty.json.err" || fail "no message naming the dirty file"
test "$(sha256sum < "$repo/tplayers/layers.py")" = "$sha_before" || fail "--apply changed the dirty file"
test "$(git -C "$repo" status --porcelain)" = " M tplayers/layers.py" || fail "status: $(git -C "$repo" status --porcelain)"
git -C "$repo" checkout -q -- .
assert_untouched "$repo"
echo "repair param e2e ok"
