#!/usr/bin/env bash
# smallfix bot opens one pull request for a benchmark bug's issue and keeps it that way:
# pushed over smart HTTP with the token (git http-backend behind Basic auth), a second run
# force-pushes onto a moved default branch and edits the same pull request through rate-limited
# answers (403 with X-RateLimit-Remaining: 0, 429 with Retry-After), a pull request a human
# closed is not reopened, a branch with someone else's commit is not overwritten, and the token
# shows up nowhere but in the headers.
set -euo pipefail
source "$(dirname "$0")/repair_e2e_lib.bash" "$@"
source "$(dirname "$0")/bot_lib.bash"

BUG=param-cast-str-env
make_remote "$BUG"
start_git_http
# Issue 4 reports the same bug, but its branch already holds a maintainer's commit.
git clone -q "$work/git/remote.git" "$work/bob"
git -C "$work/bob" checkout -q -b smallfix/issue-4
echo "# notes" >> "$work/bob/README.md"
git -C "$work/bob" add README.md
git -C "$work/bob" -c user.name=Bob -c user.email=bob@example.com commit -qm "Bob's work"
git -C "$work/bob" push -q origin smallfix/issue-4
BOB_TIP=$(remote_git rev-parse smallfix/issue-4)

"$PY" - "$BENCH/$BUG" "$GIT_URL/remote.git" "$work/git/remote.git" > "$work/seed.json" <<'PY'
import json, sys, yaml
bug = yaml.safe_load(open(sys.argv[1] + "/bug.yaml"))
body = open(sys.argv[1] + "/issue.md").read()
issue = lambda n: {"number": n, "title": bug["title"], "body": body, "labels": ["smallfix"]}
print(json.dumps({"prefix": "/api/v3", "page_size": 2,
                  "repos": {"acme/launch": {"default_branch": "main", "clone_url": sys.argv[2], "git_dir": sys.argv[3]}},
                  "issues": {"acme/launch": [issue(1), issue(4)]},
                  "comments": {"acme/launch#1": [{"body": "Same here on 2 nodes.", "user": "carol"},
                                                 {"body": "+1", "user": "dave"}, {"body": "+1", "user": "erin"}]}}))
PY
start_github "$(cat "$work/seed.json")"
MAIN_BEFORE=$(remote_git rev-parse main)

# 1. The first run opens a pull request.
run_bot first --issue 1 --checkout "$work/checkout"
test "$rc" = 0 || fail "first run: exit $rc: $(cat "$work/first.err")"
grep -q "^#1: opened pull request #5 " "$work/first.out" || fail "first run: $(cat "$work/first.out")"
test "$(gh_state 'len(s["pulls"]["acme/launch"])')" = 1 || fail "expected one pull request"
test "$(gh_state 's["pulls"]["acme/launch"][0]["head"]["ref"]')" = smallfix/issue-1
test "$(gh_state 's["pulls"]["acme/launch"][0]["base"]["ref"]')" = main
title=$(gh_state 's["pulls"]["acme/launch"][0]["title"]')
[[ "$title" == "Fix #1: "* ]] || fail "title: $title"
gh_state 's["pulls"]["acme/launch"][0]["body"]' > "$work/body1.md"
for expected in "### Failure" "TypeError" "### Site" "minilaunch/config.py:" "### Template" "Why it applies" \
    "| stage | result | seconds | detail |" "| test | passed |" "| regression | passed |" "failing test: \`python -m pytest" \
    "1 rank" '```diff' '+            nproc_per_node=int(' "Fixes #1" "Generated and validated by smallfix"; do
  grep -qF -- "$expected" "$work/body1.md" || fail "the body lacks '$expected': $(cat "$work/body1.md")"
done
# The branch holds the fix on top of main, by the bot; main is untouched.
test "$(remote_git rev-parse main)" = "$MAIN_BEFORE" || fail "main moved"
test "$(remote_git rev-parse smallfix/issue-1^)" = "$MAIN_BEFORE" || fail "the fix is not on main"
remote_git diff main smallfix/issue-1 | grep -q '^+.*nproc_per_node=int(env.get("NPROC_PER_NODE", 1)),' ||
  fail "the branch does not hold the fix: $(remote_git diff main smallfix/issue-1)"
test "$(remote_git log -1 --format=%ae smallfix/issue-1)" = smallfix@users.noreply.github.com
# Clone and push went through the token: user x-access-token, password right, receive-pack used.
"$PY" - "$GIT_LOG" <<'PY' || fail "the git server log: $(cat "$GIT_LOG")"
import json, sys
log = [json.loads(l) for l in open(sys.argv[1])]
authed = [x for x in log if x["user"]]
assert authed and all(x["user"] == "x-access-token" and x["token_ok"] for x in authed), log
assert any(x["path"].endswith("/git-receive-pack") for x in authed), log
assert any(x["path"].endswith("/git-upload-pack") for x in authed), log
PY
# The comments (three pages of two) were read.
test "$(requests 'sum(1 for x in r if x["path"].endswith("/issues/1/comments"))')" = 2 || fail "comments not paged"

# 2. main moves; the next run, through rate limits, force-pushes and edits the same pull request.
echo "# moved" >> "$work/seed/README.md"
git -C "$work/seed" add README.md
git -C "$work/seed" -c user.name=Alice -c user.email=alice@example.com commit -qm "docs"
git -C "$work/seed" push -q "$work/git/remote.git" main
MAIN_MOVED=$(remote_git rev-parse main)
gh_admin script '[{"method": "GET", "path": "/repos/acme/launch", "status": 403, "reset_in": 1,
                   "headers": {"X-RateLimit-Remaining": "0"}, "body": {"message": "API rate limit exceeded"}},
                  {"method": "GET", "path": "/repos/acme/launch/issues/1/comments", "status": 429,
                   "headers": {"Retry-After": "1"}}]'
before=$(requests 'len(r)')
run_bot second --issue 1 --checkout "$work/checkout"
test "$rc" = 0 || fail "second run: exit $rc: $(cat "$work/second.err")"
grep -q "^#1: updated pull request #5 (branch force-pushed)" "$work/second.out" || fail "second run: $(cat "$work/second.out")"
grep -q "X-RateLimit-Remaining: 0, resets in" "$work/second.err" || fail "no word of the wait: $(cat "$work/second.err")"
grep -q "Retry-After: 1; waiting 1 s" "$work/second.err" || fail "no word of the wait: $(cat "$work/second.err")"
"$PY" - "$GH_STATE/requests.jsonl" "$before" <<'PY' || fail "rate limits were not waited out"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][int(sys.argv[2]):]
def gap(path):
    times = [x["time"] for x in r if x["method"] == "GET" and x["path"] == path]
    return times[1] - times[0]
assert gap("/api/v3/repos/acme/launch") >= 1.0, gap("/api/v3/repos/acme/launch")
assert gap("/api/v3/repos/acme/launch/issues/1/comments") >= 0.9
assert not any(x["method"] == "POST" and x["path"].endswith("/pulls") for x in r), "a second pull request was asked for"
assert sum(1 for x in r if x["method"] == "PATCH" and x["path"].endswith("/pulls/5")) == 1
PY
test "$(gh_state 'len(s["pulls"]["acme/launch"])')" = 1 || fail "a second pull request appeared"
test "$(remote_git rev-parse smallfix/issue-1^)" = "$MAIN_MOVED" || fail "the branch was not rebuilt on the moved main"
test "$(remote_git rev-parse main)" = "$MAIN_MOVED" || fail "main changed"

# 3. A human closes it; the next run leaves it closed and the branch alone.
BRANCH_TIP=$(remote_git rev-parse smallfix/issue-1)
gh_admin pulls/acme/launch/5/close
before=$(requests 'len(r)')
run_bot third --issue 1 --checkout "$work/checkout"
test "$rc" = 0 || fail "third run: exit $rc: $(cat "$work/third.err")"
grep -q "^#1: pull request #5 with this patch was closed; not opening it again" "$work/third.out" ||
  fail "third run: $(cat "$work/third.out")"
test "$(requests "sum(1 for x in r[$before:] if x['method'] != 'GET')")" = 0 || fail "the third run wrote to GitHub"
test "$(gh_state 's["pulls"]["acme/launch"][0]["state"]')" = closed
test "$(remote_git rev-parse smallfix/issue-1)" = "$BRANCH_TIP" || fail "the closed pull request's branch was pushed"

# 4. Someone else's commit on the branch: not overwritten, no pull request.
run_bot fourth --issue 4 --checkout "$work/checkout"
test "$rc" = 0 || fail "fourth run: exit $rc: $(cat "$work/fourth.err")"
grep -q "^#4: branch smallfix/issue-4 has commits by Bob <bob@example.com>; not overwriting it" "$work/fourth.out" ||
  fail "fourth run: $(cat "$work/fourth.out")"
test "$(remote_git rev-parse smallfix/issue-4)" = "$BOB_TIP" || fail "Bob's branch was overwritten"
test "$(gh_state 'len(s["pulls"]["acme/launch"])')" = 1 || fail "a pull request was opened over Bob's branch"

# 5. A token the server refuses: a clear error, no push, and still no token in any output.
GITHUB_TOKEN="wrong-token" run_bot refused --issue 1 --checkout "$work/refused-checkout"
test "$rc" != 0 || fail "a refused token still succeeded"
grep -q "refused the token" "$work/refused.err" || fail "refused token: $(cat "$work/refused.err")"

assert_token_secret wrong-token
test -z "$(ls -A "$TMPDIR")" || fail "scratch left in TMPDIR: $(ls -A "$TMPDIR")"
echo "bot opens, updates and leaves alone its pull request ok"
