# Helpers for the `smallfix repair --llm` tests (tests/cli/repair_llm_*_test.sh), on top of
# repair_e2e_lib.bash. Sourced after it.
#   start_llm NAME BEHAVIOUR [SERVER ARGS...]  start tests/cli/llm_server.py on a free loopback
#                                              port; sets URL_<NAME>, LOG_<NAME> (one JSON line per request)
#   stop_llm NAME                              end that server
#   chat_requests LOG                          how many chat requests the server got
#   without_llm_notes FILE                     the text report without the notes --llm adds
#   TEMPLATES                                  a template directory with a fixed set of guard
#                                              templates (the None guards), so that the candidates
#                                              these tests reason about do not change when the
#                                              catalogue grows

declare -A LLM_PIDS
start_llm() {
  local name="$1" behaviour="$2"
  shift 2
  local port_file="$work/$name.port"
  rm -f "$port_file"
  "$PY" "$SRC/tests/cli/llm_server.py" "$behaviour" "$port_file" "$work/$name.log" "$@" &
  LLM_PIDS[$name]=$!
  E2E_PIDS="${E2E_PIDS:-} $!"
  for _ in $(seq 100); do
    test -s "$port_file" && break
    sleep 0.1
  done
  test -s "$port_file" || fail "the loopback LLM server ($behaviour) did not start"
  printf -v "URL_$name" 'http://127.0.0.1:%s' "$(cat "$port_file")"
  printf -v "LOG_$name" '%s' "$work/$name.log"
  touch "$work/$name.log"
}

stop_llm() {
  kill "${LLM_PIDS[$1]}" 2>/dev/null || true
  wait "${LLM_PIDS[$1]}" 2>/dev/null || true
}

chat_requests() {
  grep -c '"/v1/chat/completions"' "$1" || true
}

without_llm_notes() {
  grep -v -e '^note:    llm' "$1"
}

TEMPLATES="$work/templates"
mkdir -p "$TEMPLATES"
mkdir -p "$TEMPLATES/guard"
for t in none_continue none_object_skip none_attribute_return none_return none_call_skip none_subscript_continue; do
  cp "$SRC/templates/guard/$t.yaml" "$TEMPLATES/guard/"
done
