#!/usr/bin/python3
"""A loopback HTTP server that answers every request from a fixed table, for the bad-input
catalogue's rows that need a GitHub API or an LLM server answering in the wrong shape.

usage: canned_server.py ROUTES_JSON PORT_FILE

ROUTES_JSON is a list of {"method": "GET", "path": REGEX, "status": 200, "body": TEXT or JSON,
"headers": {...}}; the first route whose method (any when absent) and path regex (searched in
the request path with its query) match answers. Anything else gets 404. The port it listens on
goes to PORT_FILE once it is listening.
"""
import json
import os
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

routes = json.load(open(sys.argv[1]))
port_file = sys.argv[2]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        for route in routes:
            if route.get("method", self.command) != self.command:
                continue
            if not re.search(route["path"], self.path):
                continue
            body = route.get("body", "")
            if not isinstance(body, str):
                body = json.dumps(body)
            self.reply(route.get("status", 200), body.encode("utf-8", "surrogateescape"),
                       route.get("headers", {}))
            return
        self.reply(404, b'{"message": "Not Found"}', {})

    def reply(self, status, body, headers):
        self.send_response(status)
        headers = {"Content-Type": "application/json", **headers}
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = answer


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
# The rename makes the port file appear whole.
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
