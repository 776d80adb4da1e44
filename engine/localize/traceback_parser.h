#ifndef SMALLFIX_ENGINE_LOCALIZE_TRACEBACK_PARSER_H_
#define SMALLFIX_ENGINE_LOCALIZE_TRACEBACK_PARSER_H_

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/localize/trace.h"

namespace smallfix {

// Splits "Type: message" (or a bare "Type") into its parts when `line` looks like the last
// line of a Python traceback: a dotted name whose last part is CapWords or names an error.
bool ParseExceptionLine(std::string_view line, std::string* type, std::string* message);

// Reads the failures in log lines: Python tracebacks (chained ones, the SyntaxError form,
// truncated ones), pytest failures in the long, short, line and native styles (location
// lines, "E   " lines, collection and setup errors, the short test summary),
// torch.multiprocessing's "-- Process N terminated" form (also inside pytest's "E   " lines),
// faulthandler and py-spy stack dumps, watchdog / timeout lines that signal a hang, and what
// users paste when they do not paste everything: tracebacks without their header (they start
// at a frame or at "..."), exception lines indented by the printer around them (pip's
// subprocess box, torchrun's root-cause report), printed warnings ("p.py:12: FutureWarning:
// ...") and an exception line alone.
//
// Lines are fed one at a time with the rank they came from; each rank is its own stream,
// so interleaved ranks do not cut each other's tracebacks. Memory is bounded: only the last
// kMaxTraces traces are kept.
class TracebackParser {
 public:
  static constexpr size_t kMaxTraces = 4096;
  static constexpr size_t kMaxHangLines = 32;

  TracebackParser();
  ~TracebackParser();
  TracebackParser(const TracebackParser&) = delete;
  TracebackParser& operator=(const TracebackParser&) = delete;

  // `text` is one line without its rank prefix; `index` its 0-based place in the input.
  void Feed(int rank, std::string_view text, size_t index) { Feed(rank, rank, text, index); }
  // The same for a line of output `stream` (a rank, or a process a prefix named by pid).
  void Feed(int rank, int stream, std::string_view text, size_t index);
  // Closes open tracebacks and returns what was read.
  ParsedFailure Finish();

 private:
  struct Stream;
  struct Patterns;

  Stream& StreamFor(int rank, int stream);
  void Push(Stream& stream, Trace trace);
  void ClosePython(Stream& stream, bool truncated);
  void CloseDump(Stream& stream);
  void FlushPytest(Stream& stream);
  // Each reader of a line below answers whether the line was its kind (and is read).
  std::string_view UnwrapPytestError(Stream& stream, std::string_view text);
  void FeedPython(Stream& stream, std::string_view text, std::string_view trimmed);
  bool StartHeadless(Stream& stream, std::string_view text, std::string_view trimmed);
  bool FeedGeneral(Stream& stream, std::string_view text, std::string_view trimmed);
  bool FeedChainOrDump(Stream& stream, std::string_view text, std::string_view trimmed);
  bool FeedPytestError(Stream& stream, std::string_view text);
  bool FeedWarning(Stream& stream, std::string_view text);
  bool FeedPytestLocation(Stream& stream, std::string_view text);
  bool FeedPytestSummary(Stream& stream, std::string_view text);
  bool FeedErrorLine(Stream& stream, std::string_view trimmed);

  std::unique_ptr<const Patterns> patterns_;
  std::map<int, std::unique_ptr<Stream>> streams_;
  std::deque<Trace> traces_;
  size_t first_id_ = 0;  // id of traces_.front()
  ParsedFailure result_;
  size_t index_ = 0;
};

// Reads a whole failure text: normalises it (failure_text.h), splits host prefixes
// (host_prefix.h) and rank prefixes (rank_prefix.h) and parses it.
ParsedFailure ParseFailureText(std::string_view text);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_TRACEBACK_PARSER_H_
