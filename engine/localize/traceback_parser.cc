#include "engine/localize/traceback_parser.h"

#include <re2/re2.h>

#include <algorithm>
#include <utility>

#include "engine/base/text.h"
#include "engine/localize/failure_text.h"
#include "engine/localize/host_prefix.h"
#include "engine/localize/pasted_forms.h"
#include "engine/localize/rank_prefix.h"

namespace smallfix {

// Compiled once per parser; RE2 objects are immutable and cheap to match.
struct TracebackParser::Patterns {
  RE2 python_frame{R"re(\s*File "(.*)", line (\d+)(?:, in (.*))?)re"};
  RE2 faulthandler_frame{R"re(\s*File "(.*)", line (\d+) in (.*))re"};
  RE2 faulthandler_start{
      R"re((?:Current thread|Thread) 0x[0-9a-fA-F]+ \(most recent call first\):|Stack \(most recent call first\):)re"};
  RE2 pyspy_start{R"re(Thread (?:0x[0-9a-fA-F]+|\d+) \([^)]*\)(?:: ".*")?)re"};
  RE2 pyspy_frame{R"re(\s+(\S.*?) \((.+):(\d+)\)(?: \+ \d+)?)re"};
  RE2 pytest_location{R"re((\S[^:]*?\.py):(\d+):(?: (.*))?)re"};
  RE2 pytest_header{R"re(_{3,} (.+?) _{3,})re"};
  RE2 pytest_rule{R"re(={3,}.*={3,}|-{3,} .* -{3,}|!{3,}.*!{3,})re"};
  RE2 pytest_error_line{R"re(E(?:\s{2,}(.*))?)re"};
  RE2 pytest_summary{R"re((?:FAILED|ERROR) (\S+)(?: - (.*))?)re"};
  RE2 warning{R"re(\s*(\S[^:]*?\.py):(\d+): ([A-Z]\w*Warning): ?(.*))re"};
  RE2 backticked{R"re(`([A-Za-z_][\w.]*(?:Error|Exception|Warning)(?::[^`]*)?)`)re"};
  RE2 hang{
      R"re((?i)(watchdog caught collective operation timeout|timed out waiting|timeout \(\d+:\d\d:\d\d\)!|nccl.*timeout|collective operation timeout|deadline exceeded|hang detected))re"};
};

struct TracebackParser::Stream {
  enum class Mode { kNone, kPython, kDump, kPySpy };
  int rank = -1;
  Mode mode = Mode::kNone;
  Trace current;
  int stray_lines = 0;
  int blank_lines = 0;
  bool chain_pending = false;
  std::optional<size_t> last_trace_id;  // for chains: the trace a new one supersedes
  Trace pytest;                         // frames and E lines of the pytest failure being read
  bool pytest_has_error = false;
  size_t frame_indent = 0;  // indentation of the current traceback's last "File" line
  bool e_block = false;     // reading a traceback printed inside pytest's "E   " lines
};

namespace {

std::string_view TrimLeft(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

std::string_view TrimRight(std::string_view text) {
  const size_t end = text.find_last_not_of(" \t");
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

bool IsIdentifierStart(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

size_t Indent(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t");
  return start == std::string_view::npos ? text.size() : start;
}

// An exception type that a line may hold alone: a dotted name ending in Error, Exception,
// Warning or Interrupt, not an all-capitals log level ("ERROR").
bool ErrorLikeType(std::string_view type) {
  const size_t dot = type.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? type : type.substr(dot + 1);
  if (last.size() < 5 || !(last[0] >= 'A' && last[0] <= 'Z')) return false;
  if (std::none_of(last.begin(), last.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    return false;
  }
  return last.ends_with("Error") || last.ends_with("Exception") || last.ends_with("Warning") ||
         last.ends_with("Interrupt") || last == "StopIteration";
}

int ToInt(std::string_view digits) {
  int value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9' || value > 100'000'000) return 0;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace

bool ParseExceptionLine(std::string_view line, std::string* type, std::string* message) {
  line = TrimRight(line);
  size_t i = 0;
  size_t last_part = 0;
  while (true) {
    if (i >= line.size() || !IsIdentifierStart(line[i])) return false;
    last_part = i;
    while (i < line.size() && IsWordChar(line[i])) ++i;
    if (i < line.size() && line[i] == '.') {
      ++i;
      continue;
    }
    break;
  }
  std::string_view name = line.substr(0, i);
  std::string_view rest = line.substr(i);
  if (!rest.empty()) {
    if (rest[0] != ':') return false;
    rest.remove_prefix(1);
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  }
  const std::string_view last = name.substr(last_part);
  const bool errorish = last.find("Error") != std::string_view::npos ||
                        last.find("Exception") != std::string_view::npos ||
                        last.find("Interrupt") != std::string_view::npos || last == "SystemExit" ||
                        last == "StopIteration" || last.find("Warning") != std::string_view::npos ||
                        last.find("Timeout") != std::string_view::npos;
  // CapWords names count too (custom exceptions), but "Traceback" and friends do not.
  const bool capwords = last[0] >= 'A' && last[0] <= 'Z' && last != "Traceback" && last != "Hint" &&
                        last != "Note" && last != "Process" && last != "Python";
  if (!errorish &&
      !(capwords && !rest.empty() && name.find('.') == std::string_view::npos && last.size() > 3 &&
        std::any_of(last.begin() + 1, last.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))) {
    return false;
  }
  type->assign(name);
  message->assign(rest);
  return true;
}

TracebackParser::TracebackParser() : patterns_(std::make_unique<Patterns>()) {}
TracebackParser::~TracebackParser() = default;

TracebackParser::Stream& TracebackParser::StreamFor(int rank, int stream_key) {
  std::unique_ptr<Stream>& stream = streams_[stream_key];
  if (!stream) {
    stream = std::make_unique<Stream>();
    stream->rank = rank;
  }
  return *stream;
}

void TracebackParser::Push(Stream& stream, Trace trace) {
  trace.order = index_;
  const bool chains = stream.chain_pending && trace.kind == TraceKind::kException;
  if (chains && stream.last_trace_id && *stream.last_trace_id >= first_id_) {
    traces_[*stream.last_trace_id - first_id_].superseded = true;
  }
  if (trace.kind == TraceKind::kException) stream.chain_pending = false;
  traces_.push_back(std::move(trace));
  stream.last_trace_id = first_id_ + traces_.size() - 1;
  if (traces_.size() > kMaxTraces) {
    traces_.pop_front();
    ++first_id_;
    result_.dropped_traces = true;
  }
}

void TracebackParser::ClosePython(Stream& stream, bool truncated) {
  if (stream.mode != Stream::Mode::kPython) return;
  stream.mode = Stream::Mode::kNone;
  Trace trace = std::move(stream.current);
  stream.current = Trace();
  trace.truncated = truncated;
  if (trace.frames.empty() && trace.exception_type.empty()) return;
  Push(stream, std::move(trace));
}

void TracebackParser::CloseDump(Stream& stream) {
  if (stream.mode != Stream::Mode::kDump && stream.mode != Stream::Mode::kPySpy) return;
  stream.mode = Stream::Mode::kNone;
  Trace trace = std::move(stream.current);
  stream.current = Trace();
  if (trace.frames.empty()) return;
  std::reverse(trace.frames.begin(), trace.frames.end());  // dumps print innermost first
  Push(stream, std::move(trace));
}

void TracebackParser::FlushPytest(Stream& stream) {
  Trace trace = std::move(stream.pytest);
  stream.pytest = Trace();
  stream.pytest_has_error = false;
  if (trace.frames.empty() && trace.exception_type.empty()) return;
  trace.kind = TraceKind::kException;
  trace.form = "pytest";
  trace.truncated = trace.exception_type.empty();
  Push(stream, std::move(trace));
}

// A traceback inside pytest's "E   " lines (spawn's ProcessRaisedException, a subprocess's
// output): the line without the "E" and pytest's indentation while in such a block.
std::string_view TracebackParser::UnwrapPytestError(Stream& stream, std::string_view text) {
  if (!text.empty() && text[0] == 'E' && (text.size() == 1 || text[1] == ' ')) {
    std::string_view inner = text.substr(1);
    size_t pad = 0;
    while (pad < 7 && pad < inner.size() && inner[pad] == ' ') ++pad;
    inner.remove_prefix(pad);  // pytest writes "E" and seven spaces before each line
    if (stream.e_block || inner.starts_with("Traceback (most recent call last):")) {
      stream.e_block = true;
      return inner;
    }
  } else if (stream.e_block) {
    stream.e_block = false;
    ClosePython(stream, /*truncated=*/true);
  }
  return text;
}

void TracebackParser::Feed(int rank, int stream_key, std::string_view text, size_t index) {
  index_ = index;
  ++result_.lines;
  Stream& stream = StreamFor(rank, stream_key);
  if (rank >= 0) stream.rank = rank;
  rank = stream.rank;
  text = UnwrapPytestError(stream, text);
  const std::string_view trimmed = TrimLeft(text);

  if (trimmed.starts_with("Traceback (most recent call last):")) {
    ClosePython(stream, /*truncated=*/true);
    CloseDump(stream);
    stream.mode = Stream::Mode::kPython;
    stream.current = Trace();
    stream.current.form = "python";
    stream.current.rank = rank;
    stream.stray_lines = 0;
    stream.blank_lines = 0;
    return;
  }

  std::string path, function, digits;
  switch (stream.mode) {
    case Stream::Mode::kPython:
      FeedPython(stream, text, trimmed);
      return;
    case Stream::Mode::kDump:
      if (RE2::FullMatch(text, patterns_->faulthandler_frame, &path, &digits, &function)) {
        stream.current.frames.push_back({path, ToInt(digits), function});
        return;
      }
      CloseDump(stream);
      break;
    case Stream::Mode::kPySpy:
      if (RE2::FullMatch(text, patterns_->pyspy_frame, &function, &path, &digits)) {
        stream.current.frames.push_back({path, ToInt(digits), function});
        return;
      }
      CloseDump(stream);
      break;
    case Stream::Mode::kNone:
      if (StartHeadless(stream, text, trimmed)) return;
      break;
  }
  FeedGeneral(stream, text, trimmed);
}

// A line inside a Python traceback: a frame, its source, or the exception line that ends it.
void TracebackParser::FeedPython(Stream& stream, std::string_view text, std::string_view trimmed) {
  std::string path, function, digits;
  if (trimmed.starts_with("File \"") &&
      RE2::FullMatch(text, patterns_->python_frame, &path, &digits, &function)) {
    stream.current.frames.push_back({path, ToInt(digits), function});
    stream.frame_indent = Indent(text);
    stream.blank_lines = 0;
    return;
  }
  if (trimmed.empty()) {
    if (++stream.blank_lines > 2) ClosePython(stream, /*truncated=*/true);
    return;
  }
  std::string type, message;
  // Printers that indent a whole traceback (pip's box, torchrun's root-cause report)
  // indent its exception line too, but never deeper than its frames.
  const bool indented = text[0] == ' ' || text[0] == '\t';
  const bool shallow = !stream.current.frames.empty() && Indent(text) <= stream.frame_indent;
  if ((indented && !shallow) || trimmed == "..." ||
      trimmed.starts_with("[Previous line repeated")) {
    return;  // source, carets, elisions
  }
  if (ParseExceptionLine(trimmed, &type, &message)) {
    stream.current.exception_type = std::move(type);
    stream.current.message = std::move(message);
    ClosePython(stream, /*truncated=*/false);
    return;
  }
  // A line from elsewhere (an unprefixed log line between two ranks' output).
  if (++stream.stray_lines > 8) ClosePython(stream, /*truncated=*/true);
}

// A frame outside a traceback: the header was cut off (or the paste starts at "...").
bool TracebackParser::StartHeadless(Stream& stream, std::string_view text,
                                    std::string_view trimmed) {
  std::string path, function, digits;
  if (!trimmed.starts_with("File \"") ||
      !RE2::FullMatch(text, patterns_->python_frame, &path, &digits, &function)) {
    return false;
  }
  FlushPytest(stream);
  stream.mode = Stream::Mode::kPython;
  stream.current = Trace();
  stream.current.form = "python";
  stream.current.rank = stream.rank;
  stream.current.headless = true;
  stream.current.frames.push_back({path, ToInt(digits), function});
  stream.frame_indent = Indent(text);
  stream.stray_lines = 0;
  stream.blank_lines = 0;
  return true;
}

bool TracebackParser::FeedGeneral(Stream& stream, std::string_view text, std::string_view trimmed) {
  const Patterns& p = *patterns_;
  if (trimmed.empty()) return false;
  if (FeedChainOrDump(stream, text, trimmed)) return true;
  if (result_.hang_lines.size() < kMaxHangLines && RE2::PartialMatch(text, p.hang)) {
    result_.hang_lines.emplace_back(TrimRight(trimmed.substr(0, 400)));
  }
  if ((text[0] == '_' && RE2::FullMatch(text, p.pytest_header)) ||
      ((text[0] == '=' || text[0] == '-' || text[0] == '!') &&
       RE2::FullMatch(text, p.pytest_rule))) {
    FlushPytest(stream);
    return true;
  }
  return FeedPytestError(stream, text) || FeedWarning(stream, text) ||
         FeedPytestLocation(stream, text) || FeedPytestSummary(stream, text) ||
         FeedErrorLine(stream, trimmed);
}

// "During handling of the above exception" and its kin, or the start of a faulthandler or
// py-spy stack dump.
bool TracebackParser::FeedChainOrDump(Stream& stream, std::string_view text,
                                      std::string_view trimmed) {
  if (trimmed.starts_with("During handling of the above exception") ||
      trimmed.starts_with("The above exception was the direct cause")) {
    FlushPytest(stream);
    stream.chain_pending = true;
    return true;
  }
  if (text[0] != 'T' && text[0] != 'C' && text[0] != 'S') return false;
  const bool faulthandler = RE2::FullMatch(text, patterns_->faulthandler_start);
  if (!faulthandler &&
      !(text.starts_with("Thread ") && RE2::FullMatch(text, patterns_->pyspy_start))) {
    return false;
  }
  stream.mode = faulthandler ? Stream::Mode::kDump : Stream::Mode::kPySpy;
  stream.current = Trace();
  stream.current.kind = TraceKind::kStackDump;
  stream.current.form = faulthandler ? "faulthandler" : "py-spy";
  stream.current.rank = stream.rank;
  return true;
}

// pytest's "E   Type: message" line: the first of a block names its exception.
bool TracebackParser::FeedPytestError(Stream& stream, std::string_view text) {
  std::string content;
  if (text[0] != 'E' || !RE2::FullMatch(text, patterns_->pytest_error_line, &content)) {
    return false;
  }
  if (stream.pytest_has_error) return true;
  stream.pytest_has_error = true;
  std::string type, message;
  const std::string_view body = TrimLeft(content);
  if (ParseExceptionLine(body, &type, &message)) {
    stream.pytest.exception_type = std::move(type);
    stream.pytest.message = std::move(message);
  } else if (body.starts_with("assert")) {
    stream.pytest.exception_type = "AssertionError";
    stream.pytest.message.assign(body);
  } else if (body.starts_with("Failed: ")) {
    // pytest's own outcome (pytest.fail, a pytest.raises or pytest.warns that saw
    // nothing): "Failed: DID NOT RAISE <class 'ValueError'>".
    stream.pytest.exception_type = "Failed";
    stream.pytest.message.assign(body.substr(8));
  } else {
    stream.pytest_has_error = false;  // a continuation of something else
  }
  stream.pytest.rank = stream.rank;
  return true;
}

// A printed warning, "path.py:12: SomeWarning: message".
bool TracebackParser::FeedWarning(Stream& stream, std::string_view text) {
  if (text.find("Warning") == std::string_view::npos ||
      text.find(".py:") == std::string_view::npos) {
    return false;
  }
  std::string path, digits, type, message;
  if (!RE2::FullMatch(text, patterns_->warning, &path, &digits, &type, &message)) return false;
  FlushPytest(stream);
  Trace trace;
  trace.form = "warning";
  trace.rank = stream.rank;
  trace.frames.push_back({path, ToInt(digits), ""});
  trace.exception_type = std::move(type);
  trace.message = std::move(message);
  Push(stream, std::move(trace));
  return true;
}

// pytest's "path.py:12: in function" frame lines, and the block's last location line that
// names its exception type.
bool TracebackParser::FeedPytestLocation(Stream& stream, std::string_view text) {
  std::string tail, path, digits;
  if (text.find(".py:") == std::string_view::npos ||
      !RE2::FullMatch(text, patterns_->pytest_location, &path, &digits, &tail)) {
    return false;
  }
  const std::string_view rest = TrimRight(tail);
  std::string type, message;
  if (rest.empty() || rest.starts_with("in ")) {
    stream.pytest.frames.push_back(
        {path, ToInt(digits), rest.empty() ? std::string() : std::string(rest.substr(3))});
    stream.pytest.rank = stream.rank;
    return true;
  }
  // The block's last location names its exception type; pytest's own `Failed` only
  // after an "E   Failed: ..." line of the block said so.
  const bool pytest_failed =
      rest == "Failed" && stream.pytest_has_error && stream.pytest.exception_type == "Failed";
  if (!pytest_failed && !ParseExceptionLine(rest, &type, &message)) return false;
  if (pytest_failed) type = "Failed";
  stream.pytest.frames.push_back({path, ToInt(digits), ""});
  stream.pytest.rank = stream.rank;
  if (!stream.pytest_has_error || stream.pytest.exception_type.empty()) {
    stream.pytest.exception_type = std::move(type);
    if (!message.empty() || stream.pytest.message.empty()) {
      stream.pytest.message = std::move(message);
    }
  }
  FlushPytest(stream);
  return true;
}

// A line of pytest's short test summary, "FAILED tests/test_x.py::test_y - Type: message".
bool TracebackParser::FeedPytestSummary(Stream& stream, std::string_view text) {
  std::string test, summary;
  if ((text[0] != 'F' && text[0] != 'E') ||
      !RE2::FullMatch(text, patterns_->pytest_summary, &test, &summary) || summary.empty()) {
    return false;
  }
  FlushPytest(stream);
  Trace trace;
  trace.kind = TraceKind::kSummary;
  trace.form = "pytest-summary";
  trace.rank = stream.rank;
  if (ParseExceptionLine(summary, &trace.exception_type, &trace.message)) {
    Push(stream, std::move(trace));
  }
  return true;
}

// An exception line on its own (an issue title, a quote in prose, the last line of a
// traceback whose frames were not pasted).
bool TracebackParser::FeedErrorLine(Stream& stream, std::string_view trimmed) {
  std::string_view candidate = trimmed;
  while (candidate.starts_with("#")) candidate.remove_prefix(1);
  candidate = TrimLeft(candidate);
  std::string type, message, quoted;
  bool found = ParseExceptionLine(candidate, &type, &message) && ErrorLikeType(type);
  if (!found && candidate.find('`') != std::string_view::npos &&
      RE2::PartialMatch(candidate, patterns_->backticked, &quoted)) {
    found = ParseExceptionLine(quoted, &type, &message) && ErrorLikeType(type);
  }
  if (!found) return false;
  FlushPytest(stream);
  Trace trace;
  trace.kind = TraceKind::kSummary;
  trace.form = "error-line";
  trace.rank = stream.rank;
  trace.exception_type = std::move(type);
  trace.message = std::move(message);
  Push(stream, std::move(trace));
  return true;
}

ParsedFailure TracebackParser::Finish() {
  for (auto& [rank, stream] : streams_) {
    ClosePython(*stream, /*truncated=*/true);
    CloseDump(*stream);
    FlushPytest(*stream);
  }
  result_.traces.assign(std::make_move_iterator(traces_.begin()),
                        std::make_move_iterator(traces_.end()));
  traces_.clear();
  return std::move(result_);
}

ParsedFailure ParseFailureText(std::string_view text) {
  TracebackParser parser;
  HostPrefixes hosts;
  PastedForms forms;
  FailureTextReader reader(text);
  std::string line, next;
  std::vector<std::string> rewritten;
  bool have_next = reader.Next(&next);
  bool joined = false, setup_py = false;
  size_t widest = 0;  // the longest line so far: a hard wrap cuts lines at one width
  while (have_next) {
    line.swap(next);
    have_next = reader.Next(&next);
    size_t index = reader.line_index() - (have_next ? 1 : 0);
    size_t segment = line.size();  // the last raw line that makes up `line`
    widest = std::max(widest, segment);
    // A frame line that a hard wrap (terminal copy, CI viewer) cut: the unprefixed lines
    // that follow continue it.
    for (int joins = 0; joins < 6 && have_next; ++joins) {
      const std::string_view current = hosts.Split(line).text;
      if (!TrimLeft(current).starts_with("File \"")) break;
      const PrefixedLine continuation = hosts.Split(next);
      if (continuation.stream >= 0 || next.empty() || next.starts_with("File \"") ||
          next.starts_with("Traceback")) {
        break;
      }
      const bool indented = next[0] == ' ' || next[0] == '\t';
      const std::string both = std::string(current) + next;
      if (IsCompleteFrameLine(current)) {
        // It looks whole; join only a line as wide as the wrap and a continuation that makes
        // a frame line and is not an exception line itself.
        std::string type, message;
        if ((indented && !next.starts_with(" in ")) || segment < 60 || segment < widest ||
            !IsCompleteFrameLine(both) || ParseExceptionLine(next, &type, &message)) {
          break;
        }
      } else if (indented && !IsCompleteFrameLine(both)) {
        break;  // a source line after a frame line the printer left incomplete
      }
      line += next;
      segment = next.size();
      widest = std::max(widest, segment);
      joined = true;
      have_next = reader.Next(&next);
      index = reader.line_index() - (have_next ? 1 : 0);
    }
    if (!setup_py && line.find("setup.py") != std::string::npos) setup_py = true;
    const PrefixedLine prefixed = hosts.Split(line);
    rewritten.clear();
    forms.Rewrite(prefixed.stream, prefixed.text, &rewritten);
    for (const std::string& plain : rewritten) {
      parser.Feed(prefixed.rank, prefixed.stream, plain, index);
    }
  }
  ParsedFailure parsed = parser.Finish();
  parsed.pasted_forms = forms.used();
  parsed.joined_wrapped_lines = joined;
  parsed.setup_py = setup_py;
  return parsed;
}

}  // namespace smallfix
