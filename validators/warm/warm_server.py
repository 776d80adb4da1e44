"""The warm validation server: pytest runs forked from an interpreter that has torch loaded.

A cold test run pays Python's start-up and `import torch` (about 1.5 s of a 1.9 s run) every
time: for the reproduction, for every candidate and for every rank. This server is started
once per repair with the project's interpreter:

    python3 warm_server.py SOCKET [MODULE,...]

It imports only third-party modules (torch, numpy, pytest; never a module of the repo under
repair: its own directory and the current directory leave sys.path first), binds the unix
socket SOCKET, prints "ready" and serves one request per connection. A request is one JSON
line (validators/warm/warm_server.cc writes it):

    {"cwd": DIR, "mode": "module"|"script", "args": [...], "env": {...}, "output": FILE,
     "time_limit": S, "grace": S, "memory_limit": BYTES, "namespaces": [PATH, ...]}

For each, a supervisor process is forked; it forks the test process (its own process group,
like every process smallfix starts), answers {"pid": N}, waits, and answers
{"exit_code": C, "signal": S, "timed_out": B, "cancelled": B}. The test process changes into
DIR, joins the namespaces (a network sandbox: validators/process/network_sandbox.h; the user namespace
first), applies the environment, rebuilds sys.path as `python -m pytest` (mode "module") or the
`pytest` script (mode "script") would have it, drops any module that is not preloaded, and
runs pytest.main(args) with its output in FILE. A run past its limit has its group killed
(SIGTERM, the grace, SIGKILL); closing the connection cancels it the same way. The server
itself never runs test code, so a hang or a crash costs one run, not the server. It exits
when its stdin closes (smallfix went away).
"""

import importlib
import io
import json
import os
import select
import shutil
import signal
import socket
import sys
import time

PRELOAD = ["torch", "torch.distributed", "torch.nn", "torch.nn.functional", "torch.optim", "numpy", "pytest"]


def clean_sys_path():
    """sys.path without the server's own directory, '' and the cwd: the site paths."""
    own = os.path.dirname(os.path.abspath(__file__))
    return [p for p in sys.path[1:] if p not in ("", ".", own, os.getcwd())]


def preload(names):
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # a missing package is imported by the test itself, cold
            pass


def send(conn, obj):
    try:
        conn.sendall((json.dumps(obj) + "\n").encode())
    except OSError:
        pass


def read_request(conn):
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return json.loads(data.decode())


def enter_namespaces(paths):
    """setns() into each namespace file in order (Python 3.12's os.setns, by hand for older ones).
    A run that cannot join its sandbox must not run with the network: the error ends it."""
    if not paths:
        return
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    for path in paths:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            if libc.setns(fd, 0) != 0:
                error = ctypes.get_errno()
                raise OSError(error, f"cannot join the network sandbox {path}: {os.strerror(error)}")
        finally:
            os.close(fd)


def run_test(request, base_path, preloaded):
    """In the forked test process: become a cold `python -m pytest` run as far as it matters."""
    os.setpgid(0, 0)
    for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    code = 1
    try:
        if request.get("memory_limit"):
            import resource
            limit = int(request["memory_limit"])
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        out = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.closerange(3, 65536)  # the listening socket, the connection, smallfix's pipes
        enter_namespaces(request.get("namespaces"))
        os.chdir(request["cwd"])
        os.environ.update(request["env"])
        # As the interpreter would set them up at start: PYTHONUNBUFFERED writes through, so a
        # run killed at its limit still shows what it printed.
        unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = io.TextIOWrapper(open(1, "wb", buffering=0, closefd=False), write_through=unbuffered,
                                      line_buffering=not unbuffered)
        sys.stderr = io.TextIOWrapper(open(2, "wb", buffering=0, closefd=False), write_through=True,
                                      line_buffering=True, errors="backslashreplace")
        sys.dont_write_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
        python_path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        if request["mode"] == "script":
            script = shutil.which("pytest", path=os.environ.get("PATH")) or "pytest"
            first = os.path.dirname(os.path.realpath(script))
            sys.argv = [script] + request["args"]
        else:
            first = os.getcwd()
            main_file = os.path.join(os.path.dirname(sys.modules["pytest"].__file__), "__main__.py") \
                if "pytest" in sys.modules else "-m"
            sys.argv = [main_file] + request["args"]
        sys.path[:] = [first] + [os.path.abspath(p) for p in python_path] + base_path
        sys.path_importer_cache.clear()
        # Only what the server preloaded may stay: nothing of any repo, nothing a former
        # request imported (each ran in its own process, but be explicit about the contract).
        for name in list(sys.modules):
            if name not in preloaded:
                del sys.modules[name]
        importlib.invalidate_caches()
        import pytest
        code = pytest.main(request["args"])
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException as error:  # report like an uncaught exception in a cold run
        import traceback
        traceback.print_exception(type(error), error, error.__traceback__)
        code = 1
    try:
        # As the interpreter ends: wait for the test's non-daemon threads (a cold run that
        # leaves one running hangs until its limit, so this one must too), then atexit.
        import threading
        threading._shutdown()
        import atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(int(code) & 0xFF)


def kill_group(pid, grace, status_of):
    """SIGTERM the group, wait `grace`, SIGKILL it; the leader's wait status."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except OSError:
        pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        status = status_of(pid)
        if status is not None:
            return status
        time.sleep(0.02)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    return os.waitpid(pid, 0)[1]


def supervise(conn, base_path, preloaded):
    """In the forked supervisor: one request, start to answer."""
    request = read_request(conn)
    pid = os.fork()
    if pid == 0:
        run_test(request, base_path, preloaded)
    try:
        os.setpgid(pid, pid)  # also here, so the group exists before the child runs
    except OSError:
        pass

    def stop(*_):  # smallfix ends the server's group: take the test's group along
        try:
            os.killpg(pid, signal.SIGKILL)
        finally:
            os._exit(1)

    signal.signal(signal.SIGTERM, stop)
    send(conn, {"pid": pid})

    def status_of(p):
        done, status = os.waitpid(p, os.WNOHANG)
        return status if done else None

    limit = float(request.get("time_limit") or 0)
    grace = float(request.get("grace", 2))
    deadline = time.monotonic() + limit if limit > 0 else None
    timed_out = cancelled = False
    while True:
        status = status_of(pid)
        if status is not None:
            break
        if deadline is not None and time.monotonic() > deadline:
            timed_out = True
            status = kill_group(pid, grace, status_of)
            break
        readable, _, _ = select.select([conn], [], [], 0.05)
        if readable and not conn.recv(1):  # smallfix closed the connection: cancel
            cancelled = True
            status = kill_group(pid, grace, status_of)
            break
    try:
        os.killpg(pid, signal.SIGKILL)  # whatever the test left running in its group
    except OSError:
        pass
    send(conn, {
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0,
        "timed_out": timed_out,
        "cancelled": cancelled,
    })


def main():
    socket_path = sys.argv[1]
    names = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else PRELOAD
    base_path = clean_sys_path()
    sys.path[:] = base_path
    preload(names)
    preloaded = set(sys.modules)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    print("ready", flush=True)
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        readable, _, _ = select.select([listener, sys.stdin], [], [], 1.0)
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 4096):
            return
        if listener not in readable:
            continue
        conn, _ = listener.accept()
        pid = os.fork()
        if pid == 0:
            listener.close()
            code = 0
            try:
                supervise(conn, base_path, preloaded)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        conn.close()


if __name__ == "__main__":
    main()
