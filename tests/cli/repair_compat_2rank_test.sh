#!/usr/bin/env bash
# End to end: a compat bug that shows only with 2 ranks, repaired from a pasted CI log.
# tests/data/repair/compat_sp_reduce_scatter: sequence-parallel reduce-scatter calls
# dist.reduce_scatter_tensor, which torch 1.12 lacks (its conftest.py emulates 1.12 by deleting the
# attribute and providing the private dist._reduce_scatter_base, as CI jobs for old releases do).
# With one rank the function returns early and the test passes, so:
#   - with --runner torchrun --world-size 2 (real gloo process groups, MASTER_PORT per run) the
#     failure reproduces and a compat candidate is plausible; its diff passes by hand on 2 ranks;
#   - with the default local runner (1 rank) smallfix says "cannot reproduce" and exits 1.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"

NAME=compat_sp_reduce_scatter
FAILING="python -m pytest -q -x tests/test_comm.py::test_reduce_scatter_sums_and_shards"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
repo="$work/repo"

# 1. Two ranks: repaired.
set +e
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/ci.log" --test "$FAILING" --test "$ALL" \
  --runner torchrun --world-size 2 --timeout 120 --json > "$work/two.json" 2> "$work/two.err"
rc=$?
set -e
cat "$work/two.err" >&2
test "$rc" = 0 || fail "2 ranks: expected exit 0, got $rc"
template=$(first_plausible_diff "$work/two.json" "$work/fix.diff")
echo "plausible: $template"
cat "$work/fix.diff"
case "$template" in compat.*) ;; *) fail "expected a compat template, got $template" ;; esac
"$PY" - "$work/two.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
site = d["sites"][0]
assert (site["file"], site["line"]) == ("seqpar/comm.py", 26), site
assert site["ranks"] == [0, 1], site  # the launcher log's [rankN]: prefixes were read
assert d["stats"]["reproduced"], d["stats"]
c = next(c for c in d["candidates"] if c["validation"]["status"] == "plausible")
stages = [(s["name"], s["status"]) for s in c["validation"]["stages"]]
assert stages == [("syntax", "passed"), ("compile", "passed"), ("test", "passed"), ("regression", "passed")], stages
PY
assert_untouched "$repo"
print_timing compat-2rank "$work/two.json"

# By hand on 2 ranks with the benchmark's launcher: fails before, passes after the diff.
git clone -q "$repo" "$work/byhand"
mkdir -p "$work/bin" && ln -s "$PY" "$work/bin/python"
launch() { (cd "$work/byhand" && PATH="$work/bin:$PATH" "$PY" "$SRC/benchmarks/smallfix/launch.py" --nproc 2 --timeout 60 -- "$@"); }
launch python -m pytest -q -x -p no:cacheprovider tests/test_comm.py::test_reduce_scatter_sums_and_shards > "$work/before.log" 2>&1 \
  && fail "the failing test passes on 2 ranks before the patch"
grep -q "^\[rank1\]:E *AttributeError: module 'torch.distributed' has no attribute 'reduce_scatter_tensor'" "$work/before.log" \
  || fail "unexpected failure before the patch: $(tail -5 "$work/before.log")"
git -C "$work/byhand" apply "$work/fix.diff"
launch python -m pytest -q -p no:cacheprovider tests > "$work/after.log" 2>&1 || { cat "$work/after.log"; fail "2 ranks fail after the patch"; }
grep -q '^\[rank1\]:2 passed' "$work/after.log" || fail "rank 1 did not pass: $(cat "$work/after.log")"

# 2. One rank (the default local runner): the failure does not show.
set +e
"$SMALLFIX" repair --repo "$repo" --log "$DATA/$NAME/ci.log" --test "$FAILING" --test "$ALL" \
  --timeout 120 --json > "$work/one.json" 2> "$work/one.err"
rc=$?
set -e
cat "$work/one.err" >&2
test "$rc" = 1 || fail "1 rank: expected exit 1, got $rc"
"$PY" - "$work/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert any("cannot reproduce" in note for note in d["notes"]), d["notes"]
assert not d["stats"]["reproduced"] and d["stats"]["validated"] == 0, d["stats"]
assert all(c["validation"]["status"] != "plausible" for c in d["candidates"]), d["candidates"]
PY
assert_untouched "$repo"
echo "repair compat 2-rank ok"
