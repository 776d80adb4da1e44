"""The locals at one line in passing tests, for the runtime-facts capture
(smallfix_fact_capture.py; docs/runtime-facts.md), at a cost bounded by what the test runs.

Two tracers with one interface (start and stop around a test's body, take its hits):

- On Python 3.12 and later, sys.monitoring: a PY_START event per code object is asked once and
  disabled at once for every code object that does not hold the line; the ones that do get
  LINE events of their own, and every other line of theirs is disabled at its first event. A
  test then pays for its first call of each function, not for every call.
- Before 3.12, sys.settrace: every Python call in the test's body is one look-up of its code
  object; only the code objects that hold the line get line events.
"""

import dis
import os
import sys

import pytest

from smallfix_fact_values import describe_locals

HITS_PER_TEST = 3


def line_tracer(trace, root, environment):
    """The tracer of FILE:LINE (repo-relative) for this interpreter; a usage error otherwise."""
    file, _, line = trace.rpartition(":")
    if not file or not line.isdigit():
        raise pytest.UsageError(f"--smallfix-facts-trace wants FILE:LINE, not {trace!r}")
    kind = MonitoringTracer if hasattr(sys, "monitoring") else SettraceTracer
    return kind(file, int(line), os.path.realpath(os.path.join(root, file)), environment)


class Tracer:
    def __init__(self, file, line, path, environment):
        self.file, self.line, self.path, self.environment = file, line, path, environment
        self.in_file = {}  # co_filename -> is it the file (realpath costs system calls)
        self.hits = []
        self.active = False

    def take(self):
        hits, self.hits = self.hits, []
        return hits

    def contains(self, code):
        in_file = self.in_file.get(code.co_filename)
        if in_file is None:
            in_file = self.in_file[code.co_filename] = os.path.realpath(code.co_filename) == self.path
        return in_file and any(line == self.line for _, line in dis.findlinestarts(code))

    def record(self, frame):
        """Keeps the frame's locals; False once the test has its share."""
        if len(self.hits) < HITS_PER_TEST:
            self.hits.append(describe_locals(frame.f_locals.items(), self.environment))
        return len(self.hits) < HITS_PER_TEST


class SettraceTracer(Tracer):
    def __init__(self, *args):
        super().__init__(*args)
        self.on_call = self.call_filter()

    def start(self):
        if sys.gettrace() is not None:  # coverage or a debugger: theirs wins
            return False
        self.hits = []
        self.environment.refresh()
        sys.settrace(self.on_call)
        return True

    def stop(self):
        sys.settrace(None)

    def call_filter(self):
        """The global trace function, called for every Python call in a traced test: a closure
        over locals, since each attribute look-up here is paid hundreds of thousands of times
        (a first optimizer step imports much of torch)."""
        wanted, contains, on_line = {}, self.contains, self.on_line

        def on_call(frame, event, arg):
            code = frame.f_code
            inside = wanted.get(code)
            if inside is None:
                inside = wanted[code] = contains(code)
            return on_line if inside else None

        return on_call

    def on_line(self, frame, event, arg):
        if event != "line" or frame.f_lineno != self.line:
            return self.on_line
        if self.record(frame):
            return self.on_line
        # Enough for this test: no more call events either. (A None returned for a line event
        # keeps the frame's tracer; f_trace = None drops it.)
        sys.settrace(None)
        frame.f_trace = None
        return None


class MonitoringTracer(Tracer):
    def __init__(self, *args):
        super().__init__(*args)
        self.tool = None

    def start(self):
        monitoring = sys.monitoring
        if self.tool is None:
            free = [tool for tool in range(6) if monitoring.get_tool(tool) is None]
            if not free:  # every tool slot taken (debuggers, coverage, profilers): not traced
                return False
            self.tool = free[-1]
            monitoring.use_tool_id(self.tool, "smallfix facts")
            monitoring.register_callback(self.tool, monitoring.events.PY_START, self.on_start)
            monitoring.register_callback(self.tool, monitoring.events.LINE, self.on_line)
        self.hits = []
        self.environment.refresh()
        self.active = True
        monitoring.set_events(self.tool, monitoring.events.PY_START)
        return True

    def stop(self):
        self.active = False
        sys.monitoring.set_events(self.tool, 0)  # the line's own LINE events stay, inactive

    def on_start(self, code, offset):
        if self.contains(code):
            sys.monitoring.set_local_events(self.tool, code, sys.monitoring.events.LINE)
        return sys.monitoring.DISABLE  # decided for this code object once and for all

    def on_line(self, code, line):
        if line != self.line:
            return sys.monitoring.DISABLE
        if self.active:
            self.record(sys._getframe(1))  # the frame running `code`
        return None
