#!/usr/bin/env bash
# The LLM API key is sent as an Authorization header and nowhere else: not in stdout, stderr,
# the JSON report, SARIF or the answer cache, even from a server that echoes the header back
# in its error bodies and answers (tests/cli/llm_server.py echo-key). SMALLFIX_LLM_API_KEY is
# preferred to OPENAI_API_KEY.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/llm_lib.bash"

NAME=guard_clip_frozen
FAILING="python -m pytest -q -x tests/test_clip.py::test_clip_with_frozen_embedding"
make_repo "$NAME" "$work/repo"
KEY="sk-smallfix-test-$RANDOM$RANDOM-secret"
OTHER="sk-openai-fallback-$RANDOM$RANDOM"

start_llm echo echo-key
for format in text json; do
  flags=()
  test "$format" = json && flags=(--json)
  set +e
  SMALLFIX_LLM_API_KEY="$KEY" OPENAI_API_KEY="$OTHER" "$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" \
    --issue "$DATA/$NAME/issue.md" --test "$FAILING" --timeout 120 "${flags[@]}" --sarif "$work/$format.sarif" \
    --llm "$URL_echo" --llm-propose 2 --llm-cache "$work/cache" > "$work/$format.out" 2> "$work/$format.err"
  rc=$?
  set -e
  test "$rc" = 0 || fail "$format: expected exit 0, got $rc: $(cat "$work/$format.err")"
done
# The server got the key, as a header, every time, and SMALLFIX_LLM_API_KEY won.
"$PY" - "$LOG_echo" "$KEY" <<'PY'
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
assert requests and all(r["auth"] == "Bearer " + sys.argv[2] for r in requests), requests
PY
# It echoed the key back; smallfix said what happened without repeating it.
grep -q "refused response_format (HTTP 400: .*Bearer \[api key\]" "$work/text.out" || fail "no note about the 400: $(cat "$work/text.out")"
for file in "$work"/text.out "$work"/text.err "$work"/json.out "$work"/json.err "$work"/text.sarif "$work"/json.sarif; do
  test -s "$file" || test "${file##*.}" = err || fail "$file is empty"
  if grep -q -e "$KEY" -e "$OTHER" "$file"; then fail "the API key leaked into $file: $(grep -e "$KEY" -e "$OTHER" "$file")"; fi
done
if grep -rq -e "$KEY" -e "$OTHER" "$work/cache"; then fail "the API key leaked into the answer cache"; fi
"$PY" -c 'import json,sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' "$work/json.out" "$work/json.sarif"
stop_llm echo

# OPENAI_API_KEY alone is used too.
start_llm plain good --prefer guard.none-continue
env -u SMALLFIX_LLM_API_KEY OPENAI_API_KEY="$OTHER" "$SMALLFIX" repair --templates "$TEMPLATES" --repo "$work/repo" --issue "$DATA/$NAME/issue.md" \
  --no-validate --llm "$URL_plain" --llm-cache "$work/cache2" > "$work/other.out" 2>&1
grep -q "Bearer $OTHER" "$LOG_plain" || fail "OPENAI_API_KEY was not sent"
if grep -q "$OTHER" "$work/other.out"; then fail "OPENAI_API_KEY leaked into the output"; fi
stop_llm plain
assert_untouched "$work/repo"
echo "repair --llm keeps the API key secret ok"
