# Helpers of the sandbox tests (tests/cli/repair_sandbox*_test.sh, tests/slurm/sandbox_test.sh).
# Sourced after repair_e2e_lib.bash (or slurm_lib.bash), which set $work, $SRC, $DATA, $PY, fail.
#   export_secrets           set secret-looking variables (values carry the marker) and a harmless one
#   start_host_server        a TCP server on the host's loopback; its port in $HOST_PORT
#   make_recording_repo NAME DEST RECORD
#                            make_repo, with a root conftest.py that records each test process
#   check_records RECORD REPO PYEXPR...
#                            assert each Python expression over the records (list `r`, dicts);
#                            `kind(x)` is "repo" (a run in REPO itself: coverage), "unpatched" (the
#                            reproduction's worktree) or "candidate" (a patched worktree)

SECRET_NAMES="GITHUB_TOKEN SMALLFIX_LLM_API_KEY OPENAI_API_KEY ACTIONS_RUNTIME_TOKEN ACTIONS_ID_TOKEN_REQUEST_TOKEN CI_JOB_TOKEN AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN GOOGLE_APPLICATION_CREDENTIALS AZURE_CLIENT_SECRET MY_SERVICE_PASSWORD HF_TOKEN"

export_secrets() {
  local name
  for name in $SECRET_NAMES; do export "$name=sf-secret-value-$name-$RANDOM"; done
  export TOKENIZERS_PARALLELISM=false
}

start_host_server() {
  local ready="$work/host-server.port"
  "$PY" -c '
import socket, sys
s = socket.create_server(("127.0.0.1", 0))
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
while True:
    c, _ = s.accept()
    c.close()
' "$ready" &
  E2E_PIDS="${E2E_PIDS:-} $!"
  disown "$!"
  for _ in $(seq 100); do test -s "$ready" && break; sleep 0.1; done
  HOST_PORT=$(cat "$ready")
  test -n "$HOST_PORT" || fail "the host's loopback server did not start"
}

make_recording_repo() {
  local name="$1" dest="$2" record="$3"
  cp -r "$DATA/$name/repo" "$dest"
  sed -e "s|@RECORD@|$record|" -e "s|@PORT@|$HOST_PORT|" "$SRC/tests/cli/sandbox_recorder.py" > "$dest/conftest.py"
  git -C "$dest" init -q -b main
  git -C "$dest" add -A
  git -C "$dest" -c user.name=e2e -c user.email=e2e@example.com commit -qm "buggy"
}

check_records() {
  local record="$1" repo="$2"
  shift 2
  "$PY" - "$record" "$repo" "$SRC/tests/cli/sandbox_recorder.py" "$@" <<'PY'
import json, os, sys
recorder = open(sys.argv[3]).read()
scope = {}
exec(recorder[:recorder.index("with open(_RECORD")].replace('int("@PORT@")', "0"), scope)
original = scope["_tree"](sys.argv[2])
r = [json.loads(line) for line in open(sys.argv[1])]
assert r, "no test process recorded anything"
def kind(x):
    if os.path.realpath(x["cwd"]) == os.path.realpath(sys.argv[2]):
        return "repo"
    return "unpatched" if x["tree"] == original else "candidate"
for expression in sys.argv[4:]:
    assert eval(expression), f"{expression}\nrecords:\n" + "\n".join(json.dumps(x) for x in r)
PY
}
