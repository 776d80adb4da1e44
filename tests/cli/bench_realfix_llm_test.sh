#!/usr/bin/env bash
# smallfix bench --realfix --llm URL --llm-propose N: a fixture project whose fix (return the
# names sorted) no template writes. The loopback model (tests/cli/llm_server.py) proposes that
# edit and then ranks its own edits last: the fix counts as found from template "llm" at the
# model's rank, with its rank in the heuristic's order (first) reported beside it. The model is shown a
# no-failure line for a fix without a symptom and the symptom for one with it, never the
# fix's description. A bad --llm URL is refused before any fix runs; without --llm the
# results carry no LLM fields.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/llm_lib.bash"
git_() { git -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c init.defaultBranch=main "$@"; }

mkdir -p "$work/mirrors/acme/two/lib"
cd "$work/mirrors/acme/two"
git_ init -q
printf 'def names(table):\n    out = list(table)\n    return out\n' > lib/names.py
git_ add -A && git_ commit -qm buggy
printf 'def names(table):\n    out = list(table)\n    return sorted(out)\n' > lib/names.py
git_ commit -qam fix
parent=$(git rev-parse HEAD~1) fix=$(git rev-parse HEAD)
cd "$work"
cat > fixes.jsonl <<JSON
{"id": "two-sort", "repo": "acme/two", "fix_commit": "$fix", "parent_commit": "$parent", "file": "lib/names.py", "fault_lines": [3], "family": "other", "description": "SECRET-DESCRIPTION return the names sorted", "symptom": null, "split": "dev"}
{"id": "two-sort-symptom", "repo": "acme/two", "fix_commit": "$fix", "parent_commit": "$parent", "file": "lib/names.py", "fault_lines": [3], "family": "other", "description": "SECRET-DESCRIPTION again", "symptom": "AssertionError: names come back unsorted", "split": "dev"}
JSON
"$PY" - "$work/edits.json" <<'PY'
import json, sys
json.dump([{"site": "s1", "target": "statement", "summary": "sort the names", "code": "return sorted(out)"}],
          open(sys.argv[1], "w"))
PY

start_llm worst worst --prefer llm --edits "$work/edits.json"
"$SMALLFIX" bench --realfix --mirror-root "$work/mirrors" --fixes fixes.jsonl --llm "$URL_worst" --llm-propose 3 \
  --llm-cache "$work/cache" --json llm.json --markdown llm.md > llm.txt 2> err.txt || fail "bench --realfix --llm failed: $(cat err.txt)"
stop_llm worst
"$PY" - llm.json "$LOG_worst" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fixes = {f["id"]: f for f in d["fixes"]}
plain = fixes["two-sort"]["without_symptom"]
assert plain["rank"] > 1 and plain["template"] == "llm", plain  # the model put its own edit last
assert plain["llm_model"] == "loopback-model" and plain["llm_edits"] == 1, plain
assert plain["heuristic_rank"] == 1, plain  # the heuristic puts the model's edit first
with_symptom = fixes["two-sort-symptom"]["with_symptom"]
assert with_symptom["rank"] > 1 and with_symptom["template"] == "llm", with_symptom
llm = d["llm"]
assert llm["model"] == "loopback-model" and llm["propose"] == 3 and llm["ran"] == 2, llm
assert llm["heuristic_correct_at_1"] == 2 and llm["llm_correct_at_1"] == 0, llm
assert llm["llm_correct_at_5"] == 2 and llm["fixed_by_edit"] == 2 and llm["edits"] == 2, llm
# Three runs asked for edits; the two without a symptom showed the same prompt, so the second
# was answered from the cache.
requests = [json.loads(line) for line in open(sys.argv[2]) if '"/v1/chat/completions"' in line]
proposals = [r["prompt"] for r in requests if r["kind"] == "propose"]
assert len(proposals) == 2, [r["kind"] for r in requests]
assert not any("SECRET-DESCRIPTION" in r["prompt"] for r in requests), "the fix's description reached the model"
assert sum("No failure report is available" in p for p in proposals) == 1, proposals
assert sum("names come back unsorted" in p for p in proposals) == 1, proposals
assert all("return out" in p for p in proposals), proposals[0]
PY
grep -q "Ranked by the model loopback-model" llm.md || fail "markdown lacks the LLM line: $(head -5 llm.md)"

# A URL with credentials is refused before any fix runs.
set +e
"$SMALLFIX" bench --realfix --mirror-root "$work/mirrors" --fixes fixes.jsonl --llm "http://user:pw@127.0.0.1:9" \
  --json bad.json > bad.txt 2> bad.err
status=$?
set -e
[ "$status" = 2 ] || fail "a bad --llm URL exited $status"
grep -q -- "--llm" bad.err || fail "the error does not name --llm: $(cat bad.err)"
[ ! -e bad.json ] || fail "results written for a refused run"

# Without --llm: no model fields, and no template writes this fix.
"$SMALLFIX" bench --realfix --mirror-root "$work/mirrors" --fixes fixes.jsonl --json plain.json --markdown plain.md \
  > plain.txt 2>/dev/null || fail "bench --realfix failed"
"$PY" - plain.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "llm" not in d, d.keys()
for f in d["fixes"]:
    for run in (f["with_symptom"], f["without_symptom"]):
        assert not any(k.startswith("llm") or k == "heuristic_rank" for k in run), run
        assert run["rank"] is None, run
PY
grep -q "Ranked by the model" plain.md && fail "plain markdown mentions the model"
echo "bench --realfix --llm ok"
