#!/usr/bin/python3
"""A loopback OpenAI-compatible chat-completions server with scripted behaviours, for smallfix's
LLM tests. Not a test itself: tests/cli/repair_llm_*_test.sh start it on a free port.

usage: llm_server.py BEHAVIOUR PORT_FILE LOG_FILE [--prefer TEMPLATE] [--edits FILE]

It writes the port it listens on to PORT_FILE, and one JSON line per request to LOG_FILE
(path, whether response_format was sent, whether an Authorization header came, the kind of
request: rank or propose, the user prompt). Behaviours:
  good       rank: candidates of template --prefer first, the rest as shown
  worst      rank: candidates of template --prefer last, the rest as shown
  garbage    prose, no JSON
  unknown    an order naming an id that was never shown
  no-schema  HTTP 400 when response_format is sent; else the good order wrapped in prose and a fence
  no-seed    as no-schema, and HTTP 422 when seed is sent too
  429        HTTP 429 with Retry-After: 1 on the first chat request, then good
  500        HTTP 500 always
  hang       reads the request and never answers
  huge       a 200 whose body is 3 MiB of whitespace before the JSON
  truncated  the answer cut at max_tokens (finish_reason "length"), half a JSON object
  echo-key   echoes the Authorization header back: in a 400 error, then inside the answer
Proposal requests (schema "site_edits", or "edits" in the system prompt) answer the edits in
--edits FILE (a JSON list) under good/worst/no-schema/429, and the behaviour's failure otherwise.
"""
import json
import os
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

behaviour, port_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
options = dict(zip(sys.argv[4::2], sys.argv[5::2]))
prefer = options.get("--prefer", "")
edits = json.load(open(options["--edits"])) if "--edits" in options else []
chat_requests = 0


def shown_candidates(prompt):
    """(id, template) of every candidate, in the order the prompt shows them."""
    return re.findall(r"^### candidate (c\d+) \(([^:]+):", prompt, re.M)


def rank_answer(prompt, worst=False):
    shown = shown_candidates(prompt)
    preferred = [cid for cid, template in shown if template == prefer]
    rest = [cid for cid, template in shown if template != prefer]
    return {"order": rest + preferred if worst else preferred + rest}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, payload, headers=()):
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def completion(self, content, finish_reason="stop"):
        self.send(200, {"id": "x", "object": "chat.completion", "model": "loopback-model",
                        "choices": [{"index": 0, "finish_reason": finish_reason,
                                     "message": {"role": "assistant", "content": content}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})

    def do_GET(self):
        self.record({"path": self.path})
        if self.path == "/v1/models":
            self.send(200, {"object": "list", "data": [{"id": "loopback-model", "object": "model"}]})
        else:
            self.send(404, {"error": "no such path"})

    def record(self, entry):
        entry["auth"] = self.headers.get("Authorization", "")
        with open(log_file, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def do_POST(self):
        global chat_requests
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        schema = request.get("response_format", {}).get("json_schema", {}).get("name", "")
        system = request["messages"][0]["content"]
        kind = "propose" if schema == "site_edits" or "edits" in system else "rank"
        self.record({"path": self.path, "kind": kind, "response_format": "response_format" in request,
                     "temperature": request.get("temperature"), "seed": request.get("seed"),
                     "model": request.get("model"),
                     "prompt_chars": sum(len(m["content"]) for m in request["messages"]),
                     "prompt": request["messages"][1]["content"]})
        chat_requests += 1
        prompt = request["messages"][1]["content"]
        good = {"edits": edits} if kind == "propose" else rank_answer(prompt)
        if behaviour == "good":
            self.completion(json.dumps(good))
        elif behaviour == "worst":
            self.completion(json.dumps({"edits": edits} if kind == "propose" else rank_answer(prompt, worst=True)))
        elif behaviour == "garbage":
            self.completion("I would go with the second one; it looks most plausible to me.")
        elif behaviour == "unknown":
            ids = [cid for cid, _ in shown_candidates(prompt)]
            self.completion(json.dumps({"order": ids[:1] + ["c999"]}))
        elif behaviour in ("no-schema", "no-seed"):
            if "response_format" in request:
                self.send(400, {"error": {"message": "response_format is not supported"}})
            elif behaviour == "no-seed" and "seed" in request:
                self.send(422, {"error": {"message": "unknown field seed"}})
            else:
                self.completion("Here is my answer:\n```json\n" + json.dumps(good) + "\n```\nHope it helps.")
        elif behaviour == "429":
            if chat_requests == 1:
                self.send(429, {"error": {"message": "rate limited"}}, [("Retry-After", "1")])
            else:
                self.completion(json.dumps(good))
        elif behaviour == "500":
            self.send(500, {"error": {"message": "internal error"}})
        elif behaviour == "hang":
            time.sleep(3600)
        elif behaviour == "huge":
            body = b" " * (3 << 20) + json.dumps({"choices": []}).encode()
            self.send(200, body)
        elif behaviour == "truncated":
            self.completion(json.dumps(good)[:12], finish_reason="length")
        elif behaviour == "echo-key":
            if "response_format" in request:
                self.send(400, {"error": {"message": "bad header " + self.headers.get("Authorization", "")}})
            else:
                self.completion("You sent " + self.headers.get("Authorization", "") + " and " +
                                json.dumps({"order": [], "note": self.headers.get("Authorization", "")}))
        else:
            self.send(500, {"error": "unknown behaviour " + behaviour})


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that hangs up on a huge body is expected, not news


server = Server(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.replace(port_file + ".tmp", port_file)
server.serve_forever()
