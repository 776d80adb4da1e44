#!/usr/bin/env bash
# smallfix repair --llm against a loopback OpenAI-compatible server (tests/cli/llm_server.py)
# with scripted behaviours. Whatever the server does, the run ends with the right exit status
# and says what happened; when the model's answer is unusable the candidates keep the
# heuristic order exactly, and without --llm the report has no trace of the LLM.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/llm_lib.bash"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
ALL="python -m pytest -q tests"
make_repo "$NAME" "$work/repo"
ISSUE="$DATA/$NAME/issue.md"
list() {  # repair --no-validate, text and JSON; $1 names the outputs, the rest are extra flags
  local out="$1"
  shift
  "$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --no-validate -q "$@" > "$work/$out.txt"
  "$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --no-validate -q --json "$@" > "$work/$out.json"
}
order() { json "$1" '" ".join(c["template"] + "@" + str(c["line"]) for c in d["candidates"])'; }

# Without --llm: no LLM note, no stats.llm.
list plain
grep -q 'llm' "$work/plain.txt" && fail "a report without --llm mentions the LLM: $(cat "$work/plain.txt")"
test "$(json "$work/plain.json" '"llm" in d["stats"]')" = False || fail "stats.llm without --llm"
heuristic=$(order "$work/plain.json")
echo "heuristic order: $heuristic"
test "$(json "$work/plain.json" 'len(d["candidates"])')" -ge 2 || fail "the test needs two candidates or more"
first=$(json "$work/plain.json" 'd["candidates"][0]["template"]')
last=$(json "$work/plain.json" 'd["candidates"][-1]["template"]')

# A good ordering that agrees with the heuristic's first: the order stands, the request was as promised.
start_llm good good --prefer "$first"
list good --llm "$URL_good" --llm-cache "$work/cache-good"
test "$(order "$work/good.json")" = "$heuristic" || fail "good: order $(order "$work/good.json")"
grep -q "^note:    llm ranking: loopback-model ordered" "$work/good.txt" || fail "good: no ranking note: $(cat "$work/good.txt")"
test "$(json "$work/good.json" 'd["stats"]["llm"]["model"]')" = loopback-model || fail "good: stats.llm.model"
# The text run asked the server; the JSON run after it read the same answer from the cache.
grep -q "^note:    llm: 1 call(s), 0 answer(s) from the cache, 100 prompt and 10 completion tokens" "$work/good.txt" \
  || fail "good: no spending note: $(grep note "$work/good.txt")"
test "$(json "$work/good.json" '(d["stats"]["llm"]["calls"], d["stats"]["llm"]["cache_hits"])')" = "(0, 1)" \
  || fail "good: the second run did not use the cache: $(json "$work/good.json" 'd["stats"]["llm"]')"
"$PY" - "$LOG_good" <<'PY'
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
assert requests[0]["path"] == "/v1/models", requests  # the model came from the server
chat = [r for r in requests if r["path"] == "/v1/chat/completions"]
assert chat and all(r["temperature"] == 0 and r["seed"] == 7 and r["response_format"] for r in chat), chat
assert all(r["model"] == "loopback-model" and r["auth"] == "" for r in chat), chat  # no key in the environment
PY
# The same request again comes from the cache: no new chat request, same order.
before=$(chat_requests "$LOG_good")
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --no-validate -q --json --llm "$URL_good" \
  --llm-cache "$work/cache-good" > "$work/good2.json"
test "$(chat_requests "$LOG_good")" = "$before" || fail "the cached answer was asked for again"
test "$(json "$work/good2.json" 'd["stats"]["llm"]["cache_hits"]')" = 1 || fail "good: cache_hits"
test "$(order "$work/good2.json")" = "$heuristic" || fail "good: the cached answer gave another order"
stop_llm good

# A model that puts the heuristic's favourite last: the order changes, and validation still
# decides (the worse candidates are tried first and fail; the guard is still found plausible).
start_llm worst worst --prefer "$first"
set +e
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --test "$FAILING" --test "$ALL" --timeout 120 --json -q \
  --llm "$URL_worst" --llm-cache "$work/cache-worst" > "$work/worst.json"
rc=$?
set -e
test "$rc" = 0 || fail "worst: expected exit 0, got $rc"
test "$(json "$work/worst.json" 'd["candidates"][-1]["template"]')" = "$first" || fail "worst: order $(order "$work/worst.json")"
test "$(json "$work/worst.json" 'd["candidates"][0]["validation"]["status"]')" = failed || fail "worst: the first candidate was not validated and failed"
test "$(first_plausible_diff "$work/worst.json" "$work/worst.diff")" = "$first" || fail "worst: validation chose another patch"
assert_untouched "$work/repo"
stop_llm worst

# Unusable answers: the heuristic order is kept exactly, and a note says why.
check_fallback() {
  local name="$1" expect="$2"
  shift 2
  test "$(order "$work/$name.json")" = "$heuristic" || fail "$name: order changed: $(order "$work/$name.json")"
  diff <(without_llm_notes "$work/$name.txt") "$work/plain.txt" || fail "$name: the report differs beyond the LLM notes"
  grep -q "^note:    llm ranking not used (.*$expect.*); heuristic order kept" "$work/$name.txt" \
    || fail "$name: no note saying '$expect': $(grep note "$work/$name.txt")"
  echo "$name: $(grep '^note:    llm ranking not used' "$work/$name.txt")"
}
start_llm garbage garbage
list garbage --llm "$URL_garbage" --llm-cache "$work/cache-garbage"
check_fallback garbage "holds no JSON object"
stop_llm garbage

start_llm unknown unknown
list unknown --llm "$URL_unknown" --llm-cache "$work/cache-unknown"
check_fallback unknown 'unknown id \"c999\"'
stop_llm unknown

start_llm e500 500
SECONDS=0
list e500 --llm "$URL_e500" --llm-cache "$work/cache-500" --llm-model given-model
check_fallback e500 "HTTP 500"
test "$(chat_requests "$LOG_e500")" = 8 || fail "500: expected 4 attempts per run, got $(chat_requests "$LOG_e500") in two runs"
grep -q '/v1/models' "$LOG_e500" && fail "500: asked for the model list although --llm-model was given"
test "$(json "$work/e500.json" 'd["stats"]["llm"]["retries"]')" = 3 || fail "500: retries $(json "$work/e500.json" 'd["stats"]["llm"]')"
stop_llm e500

# A server that never answers: each run ends after --llm-timeout, not retried.
start_llm hang hang
SECONDS=0
list hang --llm "$URL_hang" --llm-cache "$work/cache-hang" --llm-model m --llm-timeout 2
test "$SECONDS" -lt 15 || fail "hang: two runs took $SECONDS s with --llm-timeout 2"
check_fallback hang "no complete answer within 2 s"

# Ctrl-C while waiting for the model: the run stops at once with 130, nothing left behind.
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --test "$FAILING" --timeout 120 -q --llm "$URL_hang" \
  --llm-model m --llm-timeout 60 --llm-cache "$work/cache-int" > /dev/null 2> "$work/int.err" &
pid=$!
E2E_PIDS="$E2E_PIDS $pid"
for _ in $(seq 100); do
  test "$(chat_requests "$LOG_hang")" -ge 3 && break  # two from the runs above, one from this
  sleep 0.1
done
test "$(chat_requests "$LOG_hang")" -ge 3 || fail "interrupt: the request never reached the server"
SECONDS=0
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
test "$rc" = 130 || fail "interrupt: expected exit 130, got $rc: $(cat "$work/int.err")"
test "$SECONDS" -lt 5 || fail "interrupt: took $SECONDS s to stop"
assert_untouched "$work/repo"
stop_llm hang

start_llm huge huge
list huge --llm "$URL_huge" --llm-cache "$work/cache-huge" --llm-model m
check_fallback huge "response larger than 1048576 bytes"
stop_llm huge

start_llm truncated truncated --prefer "$last"
list truncated --llm "$URL_truncated" --llm-cache "$work/cache-truncated" --llm-model m
check_fallback truncated "cut at max_tokens"
stop_llm truncated

# Nobody listening.
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --no-validate -q --llm http://127.0.0.1:9 --llm-model m \
  --llm-cache "$work/cache-none" > "$work/none.txt"
diff <(without_llm_notes "$work/none.txt") "$work/plain.txt" || fail "unreachable: the report differs beyond the LLM notes"
grep -q "^note:    llm ranking not used (http://127.0.0.1:9/v1/chat/completions: " "$work/none.txt" || fail "unreachable: $(cat "$work/none.txt")"

# 429 with Retry-After: 1, then an answer: one retry after a second, and the answer used.
start_llm r429 429 --prefer "$last"
SECONDS=0
list r429 --llm "$URL_r429" --llm-cache "$work/cache-429"
test "$SECONDS" -ge 1 || fail "429: did not wait for Retry-After"
test "$(json "$work/r429.json" 'd["candidates"][0]["template"]')" = "$last" || fail "429: the answer after the retry was not used"
grep -q "^note:    llm: HTTP 429 from /v1/chat/completions; retried after 1.0 s" "$work/r429.txt" || fail "429: $(grep note "$work/r429.txt")"
stop_llm r429

# A server that rejects response_format: asked again with the schema in the prompt, and the
# JSON taken out of the prose around it.
start_llm noschema no-schema --prefer "$last"
list noschema --llm "$URL_noschema" --llm-cache "$work/cache-noschema"
test "$(json "$work/noschema.json" 'd["candidates"][0]["template"]')" = "$last" || fail "no-schema: $(order "$work/noschema.json")"
grep -q "refused response_format (HTTP 400" "$work/noschema.txt" || fail "no-schema: $(grep note "$work/noschema.txt")"
stop_llm noschema
start_llm noseed no-seed --prefer "$last"
list noseed --llm "$URL_noseed" --llm-cache "$work/cache-noseed"
test "$(json "$work/noseed.json" 'd["candidates"][0]["template"]')" = "$last" || fail "no-seed: $(order "$work/noseed.json")"
grep -q "refused the request (HTTP 422: .*unknown field seed.*); asked again without seed" "$work/noseed.txt" \
  || fail "no-seed: $(grep note "$work/noseed.txt")"
stop_llm noseed

# Bad flags: exit 2 with a message.
set +e
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --no-validate --llm ftp://x > /dev/null 2> "$work/err"; rc=$?
set -e
test "$rc" = 2 && grep -q "expected an http:// or https:// URL" "$work/err" || fail "ftp URL: rc $rc, $(cat "$work/err")"
set +e
"$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$ISSUE" --no-validate --llm-propose 2 > /dev/null 2> "$work/err"; rc=$?
set -e
test "$rc" != 0 && grep -q -- "--llm" "$work/err" || fail "--llm-propose without --llm: rc $rc, $(cat "$work/err")"
echo "repair --llm ranking ok"
