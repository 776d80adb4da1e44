#!/usr/bin/python3
"""Git's smart HTTP protocol on a loopback port, through `git http-backend`, behind Basic
authentication, for the bot's tests of its token path. Not a test itself.

usage: git_http_server.py ROOT TOKEN PORT_FILE LOG_FILE

Serves the bare repositories under ROOT at http://127.0.0.1:PORT/NAME.git. Every request must
carry Basic credentials whose password is TOKEN (any user name); others get 401 with a
WWW-Authenticate challenge, as GitHub answers. Appends one JSON line per request to LOG_FILE:
method, path, query, the user name and whether the password matched.
"""
import base64
import json
import os
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

root, token, port_file, log_file = sys.argv[1:5]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def serve(self):
        split = urlsplit(self.path)
        data = self.body()
        user, password = "", ""
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        with open(log_file, "a") as log:
            log.write(json.dumps({"method": self.command, "path": split.path, "query": split.query, "user": user,
                                  "token_ok": password == token}) + "\n")
        if password != token:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=split.path,
                   QUERY_STRING=split.query, REQUEST_METHOD=self.command, REMOTE_USER=user,
                   REMOTE_ADDR="127.0.0.1", CONTENT_TYPE=self.headers.get("Content-Type", ""),
                   CONTENT_LENGTH=str(len(data)), HTTP_CONTENT_ENCODING=self.headers.get("Content-Encoding", ""),
                   GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
        run = subprocess.run(["git", "http-backend"], input=data, env=env, capture_output=True)
        head, _, payload = run.stdout.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.split(b"\r\n"):
            name, _, value = line.decode().partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = serve
    do_POST = serve


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
