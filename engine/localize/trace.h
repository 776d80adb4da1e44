#ifndef SMALLFIX_ENGINE_LOCALIZE_TRACE_H_
#define SMALLFIX_ENGINE_LOCALIZE_TRACE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace smallfix {

// One stack frame as the failure printed it.
struct TraceFrame {
  std::string path;      // as printed: absolute, relative or a module path
  int line = 0;          // 1-based
  std::string function;  // "" when the form does not print one (SyntaxError, pytest long)
};

enum class TraceKind {
  kException,  // a raised exception with its traceback (Python, pytest, JUnit)
  kStackDump,  // a stack with no exception: faulthandler or py-spy (hangs)
  kSummary,    // only a one-line summary ("FAILED t.py::x - Error: ..."), no frames
};

// One failure read from the input: a traceback, a pytest failure, or a stack dump.
struct Trace {
  TraceKind kind = TraceKind::kException;
  std::vector<TraceFrame> frames;  // outermost first (dumps are reversed to match)
  std::string exception_type;      // as printed, possibly qualified ("torch.cuda.OutOfMemoryError")
  std::string message;             // first line of the message
  int rank = -1;                   // -1 when the line carried no rank prefix
  size_t order = 0;                // input line index where it ended: "printed last" is max
  bool superseded = false;         // an earlier link of a chain ("During handling of ...")
  bool truncated = false;          // ended without an exception line
  bool headless = false;           // began at a frame: the "Traceback" header was not pasted
  // "python", "pytest", "faulthandler", "py-spy", "junit", "warning" (a printed warning:
  // one frame, the warning's category as the type), "error-line" (an exception line alone)
  std::string form;
};

// Everything read from one failure input.
struct ParsedFailure {
  std::vector<Trace> traces;            // in the order they ended
  std::vector<std::string> hang_lines;  // watchdog / timeout lines that signal a hang
  size_t lines = 0;                     // lines read
  bool dropped_traces = false;          // more traces than kept (only the last are kept)
  bool pasted_forms = false;            // some lines were rich / IPython / loguru forms
  bool joined_wrapped_lines = false;    // frames cut by a hard wrap were joined again
  bool setup_py = false;                // the input names setup.py (a build's output)
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_TRACE_H_
