# conftest.py of the sandbox tests (tests/cli/sandbox_lib.bash writes it into a test repository,
# filling in @RECORD@ and @PORT@). Each pytest process that loads it appends one JSON line to
# the record: which variables whose value carries the test's secret marker it sees, and its
# parent (the shell of a cold run, the warm server's supervisor of a warm one), and whether a
# server listening on the host's loopback answers. `tree` tells the runs apart: a digest of the
# repository's sources (not its tests) in the directory the process runs in, which a candidate
# patched and the reproduction did not (sandbox_lib.bash's check_records computes the same).
import hashlib
import json
import os
import socket

_RECORD = "@RECORD@"
_PORT = int("@PORT@")
_MARK = "sf-secret-value"


def _marked(items):
    return sorted(name for name, value in items if _MARK in value)


def _parent_marked():
    try:
        with open(f"/proc/{os.getppid()}/environ", "rb") as f:
            entries = [e.decode(errors="replace").partition("=") for e in f.read().split(b"\0") if e]
        return _marked((name, value) for name, _, value in entries)
    except OSError as error:
        return [f"unreadable: {error}"]


def _tree(root):
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("tests", "__pycache__"))
        for name in sorted(files):
            if name.endswith(".py") and name != "conftest.py":
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, root).encode() + b"\0" + open(path, "rb").read())
    return digest.hexdigest()


def _network():
    try:
        socket.create_connection(("127.0.0.1", _PORT), timeout=3).close()
        return "connected"
    except OSError as error:
        return f"refused: {error}"


with open(_RECORD, "a") as _out:
    _out.write(json.dumps({
        "cwd": os.getcwd(),
        "tree": _tree(os.getcwd()),
        "rank": os.environ.get("RANK"),
        "secrets": _marked(os.environ.items()),
        "parent_secrets": _parent_marked(),
        "tokenizers": os.environ.get("TOKENIZERS_PARALLELISM"),
        "network": _network(),
    }) + "\n")
