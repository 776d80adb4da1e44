"""pytest plugin: the runtime facts of a failing test, and the values at one line in passing tests.

    PYTHONPATH=validators/facts python -m pytest -p smallfix_fact_capture \\
        --smallfix-facts=OUT.json [--smallfix-facts-trace=FILE:LINE] [--smallfix-facts-max-bytes=N] ARGS

or the same through the environment: SMALLFIX_FACTS, SMALLFIX_FACTS_TRACE,
SMALLFIX_FACTS_MAX_BYTES (the options win). Without a facts path the plugin does nothing.

At the first failing test (its call, a fixture's set-up or teardown, or a test module that does
not import at collection), the plugin records the traceback's
frames inside the repo (pytest's rootdir) with their locals, the exception's attributes, for a
TypeError the real signature of the object called, for an AttributeError the names its owner
really has, torch.distributed's state and the installed versions. With a trace line FILE:LINE
(repo-relative), it also records the locals each time that line runs in a passing test, a few
times per test, tracing only the code objects that contain the line. OUT.json is written
(replaced whole) after the failure and at the end of the session, cut to the size cap; a
"{rank}" in its name becomes the process's RANK. The JSON is described in
docs/runtime-facts.md, and engine/facts/runtime_facts.h reads it.

PYTEST_DONT_REWRITE: pytest would otherwise rewrite this plugin's asserts (it has none) on every
run, since smallfix runs tests without writing bytecode. What a capture needs beyond the hooks
is imported when a test fails or a line is traced, so a run without either pays for little.
"""

import copy
import json
import os
import sys

import pytest

from smallfix_fact_values import Environment, class_name, describe_locals, safe_str

DEFAULT_MAX_BYTES = 256 * 1024
MAX_PASSING = 60
MAX_FRAMES = 20  # a RecursionError's thousand frames: the innermost ones say enough


def pytest_addoption(parser):
    group = parser.getgroup("smallfix", "smallfix's runtime facts")
    group.addoption("--smallfix-facts", default=os.environ.get("SMALLFIX_FACTS", ""),
                    help="write the failing test's runtime facts (JSON) to this file")
    group.addoption("--smallfix-facts-trace", default=os.environ.get("SMALLFIX_FACTS_TRACE", ""),
                    help="FILE:LINE whose locals to record in passing tests")
    group.addoption("--smallfix-facts-max-bytes", type=int,
                    default=int(os.environ.get("SMALLFIX_FACTS_MAX_BYTES") or DEFAULT_MAX_BYTES),
                    help="the size cap of the facts file")


def pytest_configure(config):
    path = config.getoption("smallfix_facts")
    if not path:
        return
    trace = config.getoption("smallfix_facts_trace")
    root = os.path.realpath(str(getattr(config, "rootpath", None) or config.rootdir))
    config.pluginmanager.register(
        FactCapture(path.replace("{rank}", os.environ.get("RANK", "0")), root, trace,
                    config.getoption("smallfix_facts_max_bytes")), "smallfix-fact-capture")


class FactCapture:
    def __init__(self, path, root, trace, max_bytes):
        self.path, self.root, self.max_bytes = path, root, max_bytes
        self.environment = Environment()  # read before any test can change it
        self.failure = None
        self.passing = []
        self.tracer = None
        if trace:
            from smallfix_fact_trace import line_tracer
            self.tracer = line_tracer(trace, root, self.environment)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        # Only the test's body is traced, not its fixtures or pytest's own calls.
        started = self.tracer is not None and self.tracer.start()
        try:
            yield
        finally:
            if started:
                self.tracer.stop()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if call.when == "call" and self.tracer is not None:
            hits = self.tracer.take()
            if report.passed and len(self.passing) < MAX_PASSING:
                self.passing += [{"test": item.nodeid, "file": self.tracer.file, "line": self.tracer.line,
                                  "locals": hit} for hit in hits]

    def pytest_exception_interact(self, node, call, report):
        """A test's failure (call, set-up or teardown) or a module that failed to import at
        collection: pytest calls this while the traceback's frames are alive, and not for
        skips or expected failures."""
        if self.failure is not None or not report.failed or call.excinfo is None:
            return
        error, tb = call.excinfo.value, call.excinfo.tb
        cause = error.__cause__ or error.__context__
        if type(error).__name__ == "CollectError" and cause is not None:
            error, tb = cause, cause.__traceback__  # pytest's wrapper of a module's ImportError
        try:
            self.environment.refresh()
            self.failure = capture_failure(node.nodeid, error, tb, self.root, self.environment)
        except Exception as failure:  # the capture must never change the test's outcome
            self.failure = {"version": 1, "test": node.nodeid, "frames": [],
                            "exception": {"type": class_name(type(error)), "message": safe_str(error)},
                            "capture_error": f"{type(failure).__name__}: {safe_str(failure)}"}
        self.write()

    def pytest_sessionfinish(self):
        if self.failure is not None or self.passing:
            self.write()

    def write(self):
        # A copy: the size cap cuts what it writes, not what a later write may still fit.
        facts = copy.deepcopy(self.failure or {"version": 1, "test": "", "exception": None, "frames": []})
        facts["passing"] = copy.deepcopy(self.passing[:MAX_PASSING])
        text = fit(facts, self.max_bytes)
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            with open(self.path + ".tmp", "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(self.path + ".tmp", self.path)
        except OSError as error:
            sys.stderr.write(f"smallfix facts: cannot write {self.path}: {error}\n")


REPO_FILES = {}  # (code file name, root) -> repo-relative path or None: realpath is not free


def repo_file(filename, root):
    """`filename` relative to the repo, or None outside it (and for installed copies in it)."""
    key = (filename, root)
    if key not in REPO_FILES:
        real = os.path.realpath(filename)  # "<frozen importlib._bootstrap>", "<string>": not files
        inside = os.path.isabs(filename) and real.startswith(root + os.sep) and not any(
            part in ("site-packages", "dist-packages") for part in real.split(os.sep))
        REPO_FILES[key] = os.path.relpath(real, root).replace(os.sep, "/") if inside else None
    return REPO_FILES[key]


def traceback_entries(tb):
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno, tb.tb_lasti
        tb = tb.tb_next


def capture_failure(nodeid, error, tb, root, environment):
    from smallfix_fact_failure import (attribute_owner, callee_of, distributed_state, exception_attrs,
                                       frame_package, versions)
    entries = [(frame, line, lasti, repo_file(frame.f_code.co_filename, root))
               for frame, line, lasti in traceback_entries(tb)]
    in_repo = [entry for entry in entries if entry[3] is not None][-MAX_FRAMES:]
    frames = [{"file": file, "line": line, "function": frame.f_code.co_name,
               "locals": describe_locals(frame.f_locals.items(), environment)}
              for frame, line, _, file in in_repo]
    callee = None
    if isinstance(error, TypeError) and in_repo:
        frame, line, lasti, _ = in_repo[-1]  # the repo's call into what raised
        callee = callee_of(frame, lasti, line, error, environment)
    # The packages of the frames from the test inward (not pytest's own, which call the test).
    first = next((i for i, entry in enumerate(entries) if entry[3] is not None), len(entries))
    packages = {frame_package(entry[0], root) for entry in entries[first:]} - {None}
    return {
        "version": 1,
        "test": nodeid,
        "exception": {"type": class_name(type(error)), "message": safe_str(error),
                      "attrs": exception_attrs(error, environment)},
        "frames": frames,
        "callee": callee,
        "attribute_owner": attribute_owner(error),
        "distributed": distributed_state(),
        "versions": versions(packages),
    }


def fit(facts, max_bytes):
    """The JSON of `facts`, cut to `max_bytes`: reprs go first, then the names of the attribute's
    owner past the first 200, the locals of the outermost frames, the passing runs, the rest of
    the names."""
    text = json.dumps(facts, default=str)
    for shrink in shrinking_steps(facts):
        if len(text) <= max_bytes:
            break
        shrink()
        text = json.dumps(facts, default=str)
    return text


def shrinking_steps(facts):
    values = [value for frame in facts.get("frames", []) + facts.get("passing", [])
              for value in frame.get("locals", {}).values()]
    owner = facts.get("attribute_owner") or {}

    def drop_reprs():
        for value in values:
            value["repr"] = ""

    def cut_names(count):
        return lambda: owner.__setitem__("names", owner.get("names", [])[:count])

    yield drop_reprs
    yield cut_names(200)
    for frame in facts.get("frames", [])[:-1]:
        yield lambda frame=frame: frame.__setitem__("locals", {})
    while facts.get("passing"):
        yield lambda: facts.__setitem__("passing", facts["passing"][:len(facts["passing"]) // 2])
    yield cut_names(0)
    for frame in facts.get("frames", [])[-1:]:
        yield lambda frame=frame: frame.__setitem__("locals", {})
