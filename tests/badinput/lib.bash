# Helpers for the rows of tests/badinput/cases.yaml (sourced before each row's setup, run and
# after-check). The runner sets SRC, WORK, REPO, FIXTURE, LOG, PY, TMPDIR, HOME and puts the
# binary on PATH as `smallfix`. What a setup keeps (keep NAME VALUE) is read back here.
if [[ -f "$WORK/vars" ]]; then source "$WORK/vars"; fi

# git_init DIR: a repository of DIR's files with one commit on main.
git_init() {
  git -C "$1" init -q
  git -C "$1" add -A
  git -C "$1" commit -qm "fixture"
}

# serve ROUTES_JSON: the canned HTTP server (canned_server.py) answering from ROUTES_JSON;
# sets URL. The runner stops it after the row.
serve() {
  local name="canned$RANDOM"
  printf '%s' "$1" > "$WORK/$name.json"
  setsid /usr/bin/python3 "$HERE/canned_server.py" "$WORK/$name.json" "$WORK/$name.port" \
    > "$WORK/$name.log" 2>&1 &
  echo $! >> "$WORK/servers"
  wait_port "$WORK/$name.port"
  keep URL "http://127.0.0.1:$(cat "$WORK/$name.port")"
}

# llm_serve BEHAVIOUR: tests/cli/llm_server.py with that scripted behaviour; sets URL.
llm_serve() {
  setsid /usr/bin/python3 "$SRC/tests/cli/llm_server.py" "$1" "$WORK/llm.port" "$WORK/llm.log" \
    > "$WORK/llm.out" 2>&1 &
  echo $! >> "$WORK/servers"
  wait_port "$WORK/llm.port"
  keep URL "http://127.0.0.1:$(cat "$WORK/llm.port")"
}

# keep NAME VALUE: sets NAME here and in the row's later steps (run, after).
keep() {
  printf -v "$1" '%s' "$2"
  printf '%s=%q\n' "$1" "$2" >> "$WORK/vars"
}

wait_port() {
  for _ in $(seq 100); do
    test -s "$1" && return 0
    sleep 0.1
  done
  echo "server did not start ($1)" >&2
  return 1
}

# github_routes REPO_JSON ISSUE_JSON: routes for a fake GitHub whose repository and issue 1
# answer the given JSON, with no comments and no pull requests.
github_routes() {
  printf '[{"path": "^/repos/acme/launch$", "body": %s},
    {"path": "^/repos/acme/launch/issues/1$", "body": %s},
    {"path": "^/repos/acme/launch/issues/1/comments", "body": %s},
    {"path": "^/repos/acme/launch/pulls", "body": %s}]' "$1" "$2" "${3:-[]}" "${4:-[]}"
}

# remote_of_fixture: a bare repository of the fixture at $WORK/remote.git; sets CLONE_URL.
remote_of_fixture() {
  git clone -q --bare "$REPO" "$WORK/remote.git"
  keep CLONE_URL "file://$WORK/remote.git"
}

# The issue body of the fixture's failure, as a JSON string.
issue_json() {
  /usr/bin/python3 -c 'import json, sys; print(json.dumps({"number": 1, "title": "sum_norms fails", "state": "open", "body": "```\n" + open(sys.argv[1]).read() + "```", "user": {"login": "alice"}, "labels": [], "html_url": "x"}))' "$LOG"
}

# without_read_caps CMD...: CMD as root without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH, so file
# modes bind it as they bind any user (the runner runs as root, which reads mode-000 files).
without_read_caps() {
  if [[ $(id -u) -ne 0 ]]; then "$@"; return; fi
  setpriv --inh-caps=-dac_override,-dac_read_search \
    --bounding-set=-dac_override,-dac_read_search -- "$@"
}

# with_tmpfs_tmpdir OPTIONS CMD...: CMD in a private mount namespace where $TMPDIR is a tmpfs
# mounted with OPTIONS (size=64k: full after 64 KiB; ro: read-only).
with_tmpfs_tmpdir() {
  local options="$1"
  shift
  unshare -m -- bash -c 'mount -t tmpfs -o "$1" smallfix-catalogue "$TMPDIR" && shift && exec "$@"' \
    bash "$options" "$@"
}

# skip_row REASON: ends the setup; the runner lists the row as skipped, with REASON.
skip_row() {
  echo "$1"
  exit 77
}

# need_tmpfs: skips the row where it cannot mount a tmpfs in a private mount namespace.
need_tmpfs() {
  unshare -m -- bash -c 'mount -t tmpfs -o size=4k x "$TMPDIR"' 2>/dev/null ||
    skip_row "cannot mount a tmpfs in a private mount namespace here (needs root or CAP_SYS_ADMIN)"
}

# cleanup_row: undo what a row's setup did that would stop the scratch folder's removal.
cleanup_row() {
  chmod -R u+rwX "$WORK" 2>/dev/null || true
}
