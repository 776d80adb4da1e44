#!/usr/bin/env bash
# smallfix repair --llm URL --llm-propose N: the loopback server (tests/cli/llm_server.py)
# answers five edits at the sites of tests/data/repair/guard_clip_frozen: one with the same
# syntax tree as a template's candidate (dropped), two new ones (kept as template "llm",
# ranked first by the model and validated like any candidate; one carries the prompt's line
# numbers, which are taken off), one that does not parse, one that rewrites more than 10
# lines, one at a site never shown (all three rejected).
# Each rejection is a note; the run still ends with a plausible patch, validated by the tests.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/llm_lib.bash"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
ISSUE="$DATA/$NAME/issue.md"

"$PY" - "$work/edits.json" <<'PY'
import json, sys
long_body = "\n".join(f"    x{i} = {i}" for i in range(15))
edits = [
    # The guard.none-continue template's edit, written differently: the same tree.
    {"site": "s1", "target": "statement", "summary": "skip frozen parameters",
     "code": "if p.grad is None :\n    continue\n\ngrad = p.grad.detach( ).float()"},
    # New: only parameters with a gradient count.
    {"site": "s1", "target": "function", "summary": "sum only the gradients that exist",
     "code": 'def local_sq_norm(params):\n'
             '    """The sum of the squared L2 norms of the gradients of ``params`` on this stage."""\n'
             '    total = torch.zeros((), dtype=torch.float32)\n'
             '    for p in params:\n'
             '        if p.grad is not None:\n'
             '            grad = p.grad.detach().float()\n'
             '            total += grad.pow(2).sum()\n'
             '    return total\n'},
    # Hallucinated: does not parse.
    {"site": "s1", "target": "statement", "summary": "detach first", "code": "grad = p.grad.detach(.float()"},
    # Too big: 16 new lines.
    {"site": "s2", "target": "function", "summary": "rewrite", "code": "def clip_grad_norm_(params, max_norm, group=None):\n" + long_body + "\n    return 0.0\n"},
    {"site": "s9", "target": "statement", "summary": "nowhere", "code": "pass"},
    # New, with the prompt's line numbers copied onto it: they are taken off.
    {"site": "s2", "target": "statement", "summary": "norm over the parameters with gradients",
     "code": "   28 |     sq_norm = local_sq_norm([p for p in params if p.grad is not None])"},
]
json.dump(edits, open(sys.argv[1], "w"))
PY

start_llm good good --prefer llm --edits "$work/edits.json"
set +e
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --test "$FAILING" --test "$ALL" --timeout 120 --json \
  --llm "$URL_good" --llm-propose 6 --llm-cache "$work/cache" > "$work/out.json" 2> "$work/err"
rc=$?
set -e
cat "$work/err" >&2
test "$rc" = 0 || fail "expected exit 0, got $rc"
"$PY" - "$work/out.json" "$LOG_good" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
notes = "\n".join(d["notes"])
print(notes)
llm = [c for c in d["candidates"] if c["template"] == "llm"]
assert len(llm) == 2, [(c["template"], c["line"]) for c in d["candidates"]]
numbered = next(c for c in llm if c["line"] == 28)
assert "\n+    sq_norm = local_sq_norm([p for p in params if p.grad is not None])\n" in numbered["diff"], numbered["diff"]
c = next(c for c in llm if c["line"] == 17)
assert c["family"] == "llm" and c["file"] == "pipestage/clip.py" and c["line"] == 17, c
assert "sum only the gradients that exist" in c["summary"], c["summary"]
assert "+        if p.grad is not None:" in c["diff"], c["diff"]
# The model ranked an llm edit first; validation ran it like any other candidate, every stage.
first = d["candidates"][0]
assert first["template"] == "llm", [(x["template"], x["line"]) for x in d["candidates"]]
assert first["validation"]["status"] == "plausible", first["validation"]
assert [s["name"] for s in first["validation"]["stages"]] == ["syntax", "compile", "test", "regression"], first["validation"]
assert "llm edit 1 at pipestage/clip.py:17 dropped: the same syntax tree as another candidate" in notes
assert "llm edit 3 at pipestage/clip.py:17 rejected: the result does not parse" in notes
assert "llm edit 4 at pipestage/clip.py:28 rejected: it changes 16 lines, more than 10" in notes, notes
assert 'llm edit 5 rejected: unknown site "s9"' in notes
assert "llm proposal: 2 of 6 edit(s) kept as candidates" in notes
assert d["stats"]["llm"]["calls"] == 2, d["stats"]["llm"]  # one proposal, one ranking
kinds = [json.loads(line).get("kind") for line in open(sys.argv[2])]
assert kinds.count("propose") == 1 and kinds.count("rank") == 1, kinds
PY
git -C "$work/repo" apply --check <("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["candidates"][0]["diff"], end="")' "$work/out.json")
assert_untouched "$work/repo"

# A model whose every edit is unusable: the run ends as it would without proposals.
"$PY" -c 'import json,sys; json.dump([{"site": "s1", "target": "statement", "summary": "x", "code": "def (:"}], open(sys.argv[1], "w"))' "$work/bad.json"
stop_llm good
start_llm bad good --prefer guard.none-continue --edits "$work/bad.json"
set +e
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --test "$FAILING" --test "$ALL" --timeout 120 -q \
  --llm "$URL_bad" --llm-propose 1 --llm-cache "$work/cache-bad" > "$work/bad.txt"
rc=$?
set -e
test "$rc" = 0 || fail "unusable edits: expected exit 0, got $rc"
grep -q "^note:    llm edit 1 at pipestage/clip.py:17 rejected: the result does not parse" "$work/bad.txt" || fail "$(cat "$work/bad.txt")"
grep -q "^plausible patch (guard.none-continue" "$work/bad.txt" || fail "$(cat "$work/bad.txt")"
assert_untouched "$work/repo"
stop_llm bad
echo "repair --llm-propose ok"
