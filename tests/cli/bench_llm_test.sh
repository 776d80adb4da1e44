#!/usr/bin/env bash
# smallfix bench --llm URL: one benchmark bug repaired with a loopback model that ranks the
# reference fix's candidate last (tests/cli/llm_server.py worst). The run reports the rank of
# the correct candidate in the heuristic's order and in the LLM's, and correct@1 for both;
# validation still finds the fix. Without --llm the results carry no LLM fields.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/llm_lib.bash"

BUG=guard-none-grad-skip
start_llm worst worst --prefer guard.none-continue
"$SMALLFIX" bench --templates "$TEMPLATES" --bug "$BUG" --llm "$URL_worst" --llm-cache "$work/cache" --json "$work/llm.json" > "$work/llm.txt" 2> "$work/err" \
  || fail "bench --llm failed: $(cat "$work/err")"
cat "$work/llm.txt"
stop_llm worst
"$PY" - "$work/llm.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bug = d["bugs"][0]
assert bug["outcome"] == "fixed", bug
assert bug["heuristic_rank"] == 1 and bug["llm_rank"] > 1, bug  # the model put the fix last
assert bug["rank"] == bug["llm_rank"], bug
assert any(n.startswith("llm ranking: loopback-model ordered") for n in bug["llm_notes"]), bug["llm_notes"]
llm = d["llm"]
assert llm["model"] == "loopback-model" and llm["with_correct_candidate"] == 1, llm
assert llm["heuristic"]["correct_at_1"] == 1 and llm["llm"]["correct_at_1"] == 0, llm
assert llm["worsened"] == 1 and llm["improved"] == 0 and llm["fallbacks"] == 0, llm
n, k = bug["ranked"], bug["correct_candidates"]
assert n == bug["candidates"] and k == 1, bug
assert abs(llm["random_expected"]["correct_at_1"] - k / n) < 1e-9, llm
assert abs(llm["random_expected"]["mean_rank"] - (n + 1) / (k + 1)) < 1e-9, llm
PY
grep -q "^LLM ranking (loopback-model) against the heuristic" "$work/llm.txt" || fail "no comparison table"
grep -Eq "^heuristic +1 +1.00$" "$work/llm.txt" || fail "heuristic row: $(cat "$work/llm.txt")"

"$SMALLFIX" bench --templates "$TEMPLATES" --bug "$BUG" --perfect --json "$work/plain.json" > "$work/plain.txt" 2>/dev/null || fail "bench failed"
grep -q "LLM" "$work/plain.txt" && fail "bench without --llm mentions the LLM"
"$PY" - "$work/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "llm" not in d and not any(k.startswith("llm") or k == "heuristic_rank" for k in d["bugs"][0]), d
PY
echo "bench --llm ok"
