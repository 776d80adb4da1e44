# Helpers for the `smallfix bot` tests (tests/cli/bot_*_test.sh), on top of repair_e2e_lib.bash
# (sourced first). A real bare git repository is the remote; tests/forge/fake_github.py is the
# REST API; tests/cli/git_http_server.py serves the remote over smart HTTP behind the token.
#   make_remote BUG                 $work/seed: the benchmark bug's project with a .smallfix.yaml of
#                                   its tests, committed on main and pushed to $work/git/remote.git
#   start_github SEED_JSON          the fake API; sets API (a GitHub Enterprise base) and GH_STATE
#   start_git_http                  the smart HTTP server for $work/git; sets GIT_URL and GIT_LOG
#   gh_state PYEXPR                 a Python expression over the fake's state (bound to `s`)
#   gh_admin PATH [JSON]            POST to the fake's /_admin/PATH
#   requests PYEXPR                 a Python expression over the recorded API requests (`r`, a list)
#   remote_git ARGS...              git on the bare remote

TOKEN="ghs_smallfixTEST${RANDOM}${RANDOM}secret"
export GITHUB_TOKEN="$TOKEN"
BENCH="$SRC/benchmarks/smallfix/bugs"

make_remote() {
  local bug="$1"
  mkdir -p "$work/git"
  cp -r "$BENCH/$bug/project" "$work/seed"
  "$PY" - "$BENCH/$bug/bug.yaml" "$work/seed/.smallfix.yaml" <<'PY'
import json, sys
import yaml
bug = yaml.safe_load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    out.write("test: %s\ntests: [%s]\ntimeout: 60\n" % (json.dumps(bug["tests"]["failing"]), json.dumps(bug["tests"]["passing"])))
PY
  git init -q --bare -b main "$work/git/remote.git"
  git -C "$work/seed" init -q -b main
  git -C "$work/seed" add -A
  git -C "$work/seed" -c user.name=Alice -c user.email=alice@example.com commit -qm "buggy"
  git -C "$work/seed" push -q "$work/git/remote.git" main
}

remote_git() {
  git --git-dir="$work/git/remote.git" "$@"
}

start_github() {
  GH_STATE="$work/github"
  mkdir -p "$GH_STATE"
  printf '%s' "$1" > "$GH_STATE/seed.json"
  "$PY" "$SRC/tests/forge/fake_github.py" "$GH_STATE" &
  E2E_PIDS="${E2E_PIDS:-} $!"
  for _ in $(seq 100); do
    test -s "$GH_STATE/port" && break
    sleep 0.1
  done
  test -s "$GH_STATE/port" || fail "the fake GitHub did not start"
  GH_URL="http://127.0.0.1:$(cat "$GH_STATE/port")"
  API="$GH_URL/api/v3"
  touch "$GH_STATE/requests.jsonl"
}

start_git_http() {
  GIT_LOG="$work/git-http.log"
  "$PY" "$SRC/tests/cli/git_http_server.py" "$work/git" "$TOKEN" "$work/git-http.port" "$GIT_LOG" &
  E2E_PIDS="${E2E_PIDS:-} $!"
  for _ in $(seq 100); do
    test -s "$work/git-http.port" && break
    sleep 0.1
  done
  test -s "$work/git-http.port" || fail "the git smart HTTP server did not start"
  GIT_URL="http://127.0.0.1:$(cat "$work/git-http.port")"
  touch "$GIT_LOG"
}

gh_state() {
  "$PY" -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())' \
    "$GH_URL/_admin/state" > "$work/state.json"
  "$PY" -c 'import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/state.json" "$1"
}

gh_admin() {
  local data="${2:-}"
  test -n "$data" || data='{}'
  "$PY" -c 'import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), headers={"Content-Type": "application/json"}))' \
    "$GH_URL/_admin/$1" "$data"
}

requests() {
  "$PY" -c 'import json, sys; r = [json.loads(l) for l in open(sys.argv[1])]; print(eval(sys.argv[2]))' \
    "$GH_STATE/requests.jsonl" "$1"
}

# run_bot NAME ARGS...: smallfix bot with the fake API; stdout and stderr to $work/NAME.out/.err,
# the exit status in $rc.
run_bot() {
  local name="$1"
  shift
  set +e
  "$SMALLFIX" bot --github acme/launch --api "$API" --timeout 60 "$@" > "$work/$name.out" 2> "$work/$name.err"
  rc=$?
  set -e
}

# No output, request log, PR or comment of the fake, git server log or clone holds the token.
assert_token_secret() {
  local file
  gh_state 's' > "$work/state.dump"
  for file in "$work"/*.out "$work"/*.err "$work/state.dump" "${GIT_LOG:-/dev/null}"; do
    if grep -q -- "$TOKEN" "$file"; then fail "the token leaked into $file: $(grep -- "$TOKEN" "$file" | head -3)"; fi
  done
  if test -d "$work/checkout" && grep -rq -- "$TOKEN" "$work/checkout/.git" 2>/dev/null; then
    fail "the token leaked into the clone's .git"
  fi
  # It was sent, as a header, on every API request.
  # Arguments: other tokens that some runs used on purpose ("-": runs without a token).
  "$PY" - "$GH_STATE/requests.jsonl" "$TOKEN" "$@" <<'PY' || fail "the token was not sent on every API request"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
allowed = {None if t == "-" else "Bearer " + t for t in sys.argv[2:]}
assert r and all(x["authorization"] in allowed for x in r), [x["authorization"] in allowed for x in r]
assert any(x["authorization"] == "Bearer " + sys.argv[2] for x in r)
PY
}
