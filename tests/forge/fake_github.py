#!/usr/bin/python3
"""A loopback fake of the GitHub REST endpoints smallfix uses, for the forge client's and the
bot's tests. Not a test itself.

usage: fake_github.py STATE_DIR

It reads STATE_DIR/seed.json, listens on a free loopback port, writes the port to
STATE_DIR/port and appends one JSON line per API request to STATE_DIR/requests.jsonl
(method, path, query, the Authorization header as sent, the JSON body). seed.json:

  {"prefix": "/api/v3",                 # serve under this path ("" for api.github.com's layout)
   "page_size": 2,                      # items per page at most (Link headers for the rest)
   "link_base": "http://other.example", # optional: Link headers point at this scheme and host
   "repos": {"o/n": {"default_branch": "main", "clone_url": "file:///...", "git_dir": "/..."}},
   "issues": {"o/n": [{"number": 1, "title": "...", "body": "...", "labels": ["x"], "state": "open"}]},
   "comments": {"o/n#1": [{"body": "...", "user": "alice"}]},
   "script": [{"method": "GET", "path": "/repos/o/n/issues/1", "status": 403, "times": 1,
               "headers": {"X-RateLimit-Remaining": "0"}, "reset_in": 1, "body": {"message": "..."}}]}

A scripted answer replaces the next `times` answers to that method and path (path without the
prefix and query); "reset_in" adds X-RateLimit-Reset that many seconds from now. Creating a pull
request checks, with git, that the head branch exists in "git_dir" when one is given.
Test-only endpoints under /_admin (not logged): GET /_admin/state; POST /_admin/script (a list
of entries to add); POST /_admin/pulls/N/close (a human closes a pull request).
"""
import json
import os
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

state_dir = sys.argv[1]
seed = json.load(open(os.path.join(state_dir, "seed.json")))
prefix = seed.get("prefix", "")
page_size = int(seed.get("page_size", 30))
repos = seed.get("repos", {})
script = list(seed.get("script", []))
lock = threading.Lock()
log_path = os.path.join(state_dir, "requests.jsonl")
next_id = [1000]

# Issues and pull requests share numbers, as on GitHub.
issues = {}  # "o/n" -> {number: issue}
for full, items in seed.get("issues", {}).items():
    issues[full] = {}
    for item in items:
        issues[full][item["number"]] = {
            "number": item["number"], "title": item.get("title", ""), "body": item.get("body"),
            "state": item.get("state", "open"), "labels": [{"name": l} for l in item.get("labels", [])],
            "user": {"login": item.get("user", "reporter")}}
comments = {}  # "o/n#N" -> [comment]
for key, items in seed.get("comments", {}).items():
    comments[key] = []
    for item in items:
        next_id[0] += 1
        comments[key].append({"id": next_id[0], "body": item["body"], "user": {"login": item.get("user", "someone")},
                              "created_at": "2026-01-01T00:00:00Z"})
pulls = {}  # "o/n" -> {number: pull}


def new_number(full):
    used = set(issues.get(full, {})) | set(pulls.get(full, {}))
    return max(used, default=0) + 1


def issue_view(full, issue):
    out = dict(issue)
    out["html_url"] = "https://github.example/%s/issues/%d" % (full, issue["number"])
    return out


def pull_as_issue(full, pull):
    return {"number": pull["number"], "title": pull["title"], "body": pull["body"], "state": pull["state"],
            "labels": pull.get("labels", []), "user": pull["user"], "pull_request": {"url": "x"}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, payload, headers=None):
        body = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def page(self, items, query):
        """One page of `items` with GitHub's Link header."""
        per_page = min(int(query.get("per_page", ["30"])[0]), page_size)
        number = int(query.get("page", ["1"])[0])
        chunk = items[(number - 1) * per_page:number * per_page]
        headers = {}
        last = max(1, (len(items) + per_page - 1) // per_page)
        if number < last:
            split = urlsplit(self.path)
            rest = {k: v[0] for k, v in query.items() if k != "page"}
            base = "%s%s?" % (seed.get("link_base") or "http://" + self.headers["Host"], split.path)

            def link(n):
                return base + "&".join("%s=%s" % kv for kv in list(rest.items()) + [("page", str(n))])

            headers["Link"] = '<%s>; rel="next", <%s>; rel="last"' % (link(number + 1), link(last))
        self.send(200, chunk, headers)

    def handle_any(self, method):
        split = urlsplit(self.path)
        query = parse_qs(split.query)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        if split.path.startswith("/_admin/"):
            return self.admin(method, split.path, body)
        with open(log_path, "a") as log:
            log.write(json.dumps({"method": method, "path": split.path, "query": split.query,
                                  "authorization": self.headers.get("Authorization"),
                                  "user_agent": self.headers.get("User-Agent"), "body": body,
                                  "time": time.time()}) + "\n")
        if not split.path.startswith(prefix + "/"):
            return self.send(404, {"message": "Not Found"})
        path = split.path[len(prefix):]
        with lock:
            for entry in script:
                if entry["method"] == method and entry["path"] == path and entry.get("times", 1) > 0:
                    entry["times"] = entry.get("times", 1) - 1
                    headers = dict(entry.get("headers", {}))
                    if "reset_in" in entry:
                        headers["X-RateLimit-Reset"] = str(int(time.time()) + int(entry["reset_in"]))
                    if entry.get("echo_auth"):
                        return self.send(entry["status"], {"message": "bad: %s" % self.headers.get("Authorization")},
                                         headers)
                    return self.send(entry["status"], entry.get("body", {"message": "scripted"}), headers)
            return self.route(method, path, query, body)

    def route(self, method, path, query, body):
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)(/.*)?", path)
        if not m or m.group(1) not in repos:
            return self.send(404, {"message": "Not Found"})
        full, rest = m.group(1), m.group(2) or ""
        repo = repos[full]
        if rest == "" and method == "GET":
            return self.send(200, {"full_name": full, "default_branch": repo.get("default_branch", "main"),
                                   "clone_url": repo["clone_url"], "html_url": "https://github.example/" + full})
        m = re.fullmatch(r"/issues/(\d+)", rest)
        if m and method == "GET":
            number = int(m.group(1))
            if number in issues.get(full, {}):
                return self.send(200, issue_view(full, issues[full][number]))
            if number in pulls.get(full, {}):
                return self.send(200, pull_as_issue(full, pulls[full][number]))
            return self.send(404, {"message": "Not Found"})
        if rest == "/issues" and method == "GET":
            label = query.get("labels", [None])[0]
            state = query.get("state", ["open"])[0]
            items = [issue_view(full, i) for _, i in sorted(issues.get(full, {}).items())]
            items += [pull_as_issue(full, p) for _, p in sorted(pulls.get(full, {}).items())]
            items = [i for i in items if state == "all" or i["state"] == state]
            if label:
                items = [i for i in items if label in [l["name"] for l in i["labels"]]]
            return self.page(items, query)
        m = re.fullmatch(r"/issues/(\d+)/comments", rest)
        if m:
            key = "%s#%s" % (full, m.group(1))
            if method == "GET":
                return self.page(comments.get(key, []), query)
            if method == "POST":
                next_id[0] += 1
                comment = {"id": next_id[0], "body": body["body"], "user": {"login": "smallfix-bot"},
                           "created_at": "2026-01-02T00:00:00Z"}
                comments.setdefault(key, []).append(comment)
                return self.send(201, comment)
        m = re.fullmatch(r"/issues/(\d+)/labels", rest)
        if m and method == "POST":
            number = int(m.group(1))
            target = issues.get(full, {}).get(number) or pulls.get(full, {}).get(number)
            if target is None:
                return self.send(404, {"message": "Not Found"})
            names = [l["name"] for l in target.setdefault("labels", [])]
            target["labels"] += [{"name": n} for n in body["labels"] if n not in names]
            return self.send(200, target["labels"])
        if rest == "/pulls" and method == "GET":
            head = query.get("head", [None])[0]
            state = query.get("state", ["open"])[0]
            items = [p for _, p in sorted(pulls.get(full, {}).items())]
            items = [p for p in items if state == "all" or p["state"] == state]
            if head:
                items = [p for p in items if p["head"]["label"] == head]
            return self.page(items, query)
        if rest == "/pulls" and method == "POST":
            head = body["head"].split(":")[-1]
            owner = full.split("/")[0]
            for p in pulls.get(full, {}).values():
                if p["head"]["ref"] == head and p["state"] == "open":
                    return self.send(422, {"message": "Validation Failed", "errors": [
                        {"message": "A pull request already exists for %s:%s." % (owner, head)}]})
            sha = ""
            if repo.get("git_dir"):
                run = subprocess.run(["git", "--git-dir", repo["git_dir"], "rev-parse", "--verify", "-q",
                                      "refs/heads/" + head], capture_output=True, text=True)
                if run.returncode != 0:
                    return self.send(422, {"message": "Validation Failed", "errors": [
                        {"resource": "PullRequest", "field": "head", "code": "invalid"}]})
                sha = run.stdout.strip()
            number = new_number(full)
            pull = {"number": number, "state": "open", "title": body["title"], "body": body.get("body"),
                    "merged": False, "merged_at": None, "user": {"login": "smallfix-bot"}, "labels": [],
                    "html_url": "https://github.example/%s/pull/%d" % (full, number),
                    "head": {"ref": head, "label": "%s:%s" % (owner, head), "sha": sha},
                    "base": {"ref": body["base"]}}
            pulls.setdefault(full, {})[number] = pull
            return self.send(201, pull)
        m = re.fullmatch(r"/pulls/(\d+)", rest)
        if m and method in ("GET", "PATCH"):
            pull = pulls.get(full, {}).get(int(m.group(1)))
            if pull is None:
                return self.send(404, {"message": "Not Found"})
            if method == "PATCH":
                for key in ("title", "body", "state"):
                    if key in body:
                        pull[key] = body[key]
            return self.send(200, pull)
        return self.send(404, {"message": "Not Found", "path": path})

    def admin(self, method, path, body):
        with lock:
            if path == "/_admin/state":
                return self.send(200, {"pulls": {f: list(p.values()) for f, p in pulls.items()},
                                       "comments": comments, "script": script})
            if path == "/_admin/script" and method == "POST":
                script.extend(body)
                return self.send(200, {})
            m = re.fullmatch(r"/_admin/pulls/([^/]+/[^/]+)/(\d+)/close", path)
            if m and method == "POST":
                pulls[m.group(1)][int(m.group(2))]["state"] = "closed"
                return self.send(200, {})
        return self.send(404, {"message": "no such admin endpoint"})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PATCH(self):
        self.handle_any("PATCH")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(state_dir, "port.tmp"), "w") as out:
    out.write(str(server.server_address[1]))
os.rename(os.path.join(state_dir, "port.tmp"), os.path.join(state_dir, "port"))
server.serve_forever()
