#!/usr/bin/env bash
# smallfix repair --issue with a link: OWNER/NAME#N and an issue's URL are read from the loopback
# fake GitHub (title, body, comments over two pages, smallfix's own comments left out) through the
# client the bot uses, and give the same report as --issue FILE holding that text; the token is
# optional and, when set, sent as a header and never printed; a URL on another host implies
# GitHub Enterprise's API there; an unknown issue, an unreachable server and malformed links are
# refused with exit 2 naming the link.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/bot_lib.bash"

BUG=guard-none-grad-skip
cp -r "$BENCH/$BUG/project" "$work/repo"
git -C "$work/repo" init -q -b main
git -C "$work/repo" add -A
git -C "$work/repo" -c user.name=e2e -c user.email=e2e@example.com commit -qm "buggy"
failing=$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["tests"]["failing"])' "$BENCH/$BUG/bug.yaml")
passing=$("$PY" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["tests"]["passing"])' "$BENCH/$BUG/bug.yaml")

# The issue on the fake, and the same text as a file: title, body, then each comment that is not
# smallfix's own, as the bot reads an issue.
"$PY" - "$BENCH/$BUG" "$work/seed.json" "$work/issue.md" <<'PY'
import json, sys, yaml
bug = yaml.safe_load(open(sys.argv[1] + "/bug.yaml"))
body = open(sys.argv[1] + "/issue.md").read()
comments = [{"user": "alice", "body": "Same here with the embedding frozen."},
            {"user": "smallfix-bot", "body": "<!-- smallfix:no-patch issue=7 version=0 -->\nNo patch."},
            {"user": "bob", "body": "It started after we froze layers for LoRA."}]
json.dump({"prefix": "/api/v3", "page_size": 2,
           "repos": {"acme/launch": {"default_branch": "main", "clone_url": "file:///nowhere/launch.git"}},
           "issues": {"acme/launch": [{"number": 7, "title": bug["title"], "body": body}]},
           "comments": {"acme/launch#7": comments}}, open(sys.argv[2], "w"))
text = "# %s\n\n%s\n" % (bug["title"], body)
for c in comments:
    if "<!-- smallfix:" not in c["body"]:
        text += "\n---\nComment by @%s:\n\n%s\n" % (c["user"], c["body"])
open(sys.argv[3], "w").write(text)
PY
start_github "$(cat "$work/seed.json")"

# run NAME ISSUE ARGS...: repair with the issue, JSON report in $work/NAME.out, exit status in $rc.
run() {
  local name="$1" issue="$2"
  shift 2
  set +e
  "$SMALLFIX" repair --repo "$work/repo" --issue "$issue" --test "$failing" --test "$passing" \
    --timeout 120 --json "$@" > "$work/$name.out" 2> "$work/$name.err"
  rc=$?
  set -e
}
# The report without its timings, which differ from run to run, and without the names of the
# secrets withheld from the tests (one run has no GITHUB_TOKEN to withhold).
report() {
  "$PY" - "$work/$1.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if not k.endswith("seconds") and k not in ("ms", "withheld_env")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(d), indent=1, sort_keys=True))
PY
}

run file "$work/issue.md"
test "$rc" = 0 || fail "--issue FILE: exit $rc: $(cat "$work/file.err")"
test "$(json "$work/file.out" '[c["validation"]["status"] for c in d["candidates"]].count("plausible")')" = 1 \
  || fail "--issue FILE found no patch: $(cat "$work/file.out")"

# OWNER/NAME#N without a token (a public repository's issue), with --api at the fake.
(unset GITHUB_TOKEN SMALLFIX_GITHUB_TOKEN; run short acme/launch#7 --api "$API"; echo "$rc" > "$work/short.rc")
test "$(cat "$work/short.rc")" = 0 || fail "--issue acme/launch#7: exit $(cat "$work/short.rc"): $(cat "$work/short.err")"
grep -q "reading acme/launch#7 from $API" "$work/short.err" || fail "no progress line: $(cat "$work/short.err")"
diff <(report file) <(report short) > "$work/short.diff" || fail "acme/launch#7 and the file differ: $(head -40 "$work/short.diff")"

# The issue's URL (a link to one comment of it) on the fake's host: --api is GitHub
# Enterprise's layout there (https://HOST/api/v3), derived from the link; the token is sent.
run url "$GH_URL/acme/launch/issues/7#issuecomment-1001"
test "$rc" = 0 || fail "--issue URL: exit $rc: $(cat "$work/url.err")"
diff <(report file) <(report url) > "$work/url.diff" || fail "the URL and the file differ: $(head -40 "$work/url.diff")"

# What the fake saw: the issue and both pages of comments, twice; no token, then the token.
test "$(requests '[x["path"] for x in r]')" = "['/api/v3/repos/acme/launch/issues/7', '/api/v3/repos/acme/launch/issues/7/comments', '/api/v3/repos/acme/launch/issues/7/comments', '/api/v3/repos/acme/launch/issues/7', '/api/v3/repos/acme/launch/issues/7/comments', '/api/v3/repos/acme/launch/issues/7/comments']" \
  || fail "requests: $(requests '[(x["path"], x["query"]) for x in r]')"
test "$(requests '[x["authorization"] for x in r][:3]')" = "[None, None, None]" || fail "a token was sent without one set"
assert_token_secret -

# Errors name the link and the cause; none reaches validation or leaves anything behind.
run missing acme/launch#99 --api "$API"
test "$rc" = 2 || fail "unknown issue: exit $rc"
grep -q "^smallfix: --issue acme/launch#99: GitHub API GET /repos/acme/launch/issues/99: HTTP 404" "$work/missing.err" \
  || fail "unknown issue: $(cat "$work/missing.err")"
grep -q "no such issue at $API that the token can read" "$work/missing.err" || fail "$(cat "$work/missing.err")"

closed_port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run down acme/launch#7 --api "http://127.0.0.1:$closed_port/api/v3"
test "$rc" = 2 || fail "unreachable server: exit $rc"
grep -q "^smallfix: --issue acme/launch#7: GitHub API http://127.0.0.1:$closed_port/api/v3/repos/acme/launch/issues/7: .*is the server reachable" "$work/down.err" \
  || fail "unreachable server: $(cat "$work/down.err")"

before=$(requests 'len(r)')
run pull https://github.com/acme/launch/pull/3
test "$rc" = 2 && grep -q "^smallfix: --issue https://github.com/acme/launch/pull/3: a pull request, not an issue; expected OWNER/NAME#NUMBER" "$work/pull.err" \
  || fail "pull request link: exit $rc: $(cat "$work/pull.err")"
run nonumber acme/launch#x
test "$rc" = 2 && grep -q "^smallfix: --issue acme/launch#x: no such file, and no issue number after the '#'" "$work/nonumber.err" \
  || fail "acme/launch#x: exit $rc: $(cat "$work/nonumber.err")"
run noname "https://github.com/acme/issues/7"
test "$rc" = 2 && grep -q "^smallfix: --issue https://github.com/acme/issues/7: not a link to one issue" "$work/noname.err" \
  || fail "short URL: exit $rc: $(cat "$work/noname.err")"
run withapi "$work/issue.md" --api "$API"
test "$rc" = 2 && grep -q "^smallfix: --api goes with an --issue link, not a file" "$work/withapi.err" \
  || fail "--api with a file: exit $rc: $(cat "$work/withapi.err")"
run nofile "$work/nothing.md"
test "$rc" = 2 && grep -q "nothing.md" "$work/nofile.err" || fail "a missing file: exit $rc: $(cat "$work/nofile.err")"
test "$(requests 'len(r)')" = "$before" || fail "a malformed link reached the API"
assert_untouched "$work/repo"
echo "repair --issue links: OK"
