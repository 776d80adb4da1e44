#include "engine/localize/localizer.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine/base/status_macros.h"
#include "engine/junit/junit_reader.h"
#include "engine/localize/failure_text.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/repo_search.h"
#include "engine/localize/site_ranker.h"
#include "engine/localize/source_facts.h"
#include "engine/localize/traceback_parser.h"
#include "engine/source/utf8.h"

namespace smallfix {
namespace {

// Reads the failures of a JUnit report: each failure's body is pytest output (any --tb
// style); when the body names no exception, the message attribute does.
absl::Status AppendJUnitTraces(std::string_view xml, ParsedFailure* parsed) {
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<JUnitCase> cases, ReadJUnit(xml));
  size_t order = parsed->lines;
  for (const JUnitCase& test : cases) {
    if (!IsFailure(test)) continue;
    ParsedFailure one = ParseFailureText(test.text);
    bool named = false;
    for (Trace& trace : one.traces) {
      trace.order += order;
      trace.form = "junit";
      named = named || !trace.exception_type.empty();
    }
    if (!named) {
      Trace trace;
      trace.kind = TraceKind::kSummary;
      trace.form = "junit";
      trace.order = order + one.lines;
      if (ParseExceptionLine(test.message, &trace.exception_type, &trace.message)) {
        one.traces.push_back(std::move(trace));
      }
    } else if (!one.traces.empty() && one.traces.back().exception_type.empty()) {
      ParseExceptionLine(test.message, &one.traces.back().exception_type,
                         &one.traces.back().message);
    }
    order += one.lines + 1;
    for (Trace& trace : one.traces) parsed->traces.push_back(std::move(trace));
    for (std::string& line : one.hang_lines) parsed->hang_lines.push_back(std::move(line));
  }
  parsed->lines = order;
  return absl::OkStatus();
}

// What a user should know about how the failure was read: what was pasted incompletely or
// in another printer's form, and what could not be used.
void AddReadingNotes(const ParsedFailure& parsed, const PathMapper& mapper,
                     std::vector<std::string>* notes) {
  bool headless = false, truncated = false;
  size_t outside = 0;
  for (const Trace& trace : parsed.traces) {
    headless = headless || trace.headless;
    truncated = truncated || (trace.truncated && trace.kind == TraceKind::kException);
    for (const TraceFrame& frame : trace.frames) outside += !mapper.Map(frame.path).has_value();
  }
  if (headless) {
    notes->push_back(
        "a traceback was pasted without its \"Traceback (most recent call last):\" line; it was "
        "read from its first frame");
  }
  if (truncated) {
    notes->push_back(
        "a traceback ends without its exception line (the paste was cut); its frames were used "
        "without it");
  }
  if (parsed.pasted_forms) {
    notes->push_back(
        "some frames were read from another printer's form (rich or loguru boxes, IPython / "
        "Colab cells, torchrun's root-cause report)");
  }
  if (parsed.joined_wrapped_lines) {
    notes->push_back("frame lines cut by a hard wrap were joined again");
  }
  if (outside > 0) {
    notes->push_back(absl::StrFormat(
        "%d frame(s) lie outside the repo (installed packages, the standard library, scripts "
        "elsewhere): they were read as context, not as sites",
        outside));
  }
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

// A frame whose line lies past the end of its file comes from another version of the file
// (an older checkout, an installed copy): there is no statement there to repair.
void DropSitesPastEnd(SourceFacts& facts, Localization& localization,
                      std::vector<std::string>* notes) {
  std::erase_if(localization.sites, [&](const Site& site) {
    const Document* document = facts.Load(site.file);
    if (document == nullptr || site.line <= document->lines().line_count()) return false;
    notes->push_back(absl::StrFormat(
        "%s:%d is past the end of the file (%d lines): the failure comes from another version of "
        "it; not used as a site",
        site.file, site.line, document->lines().line_count()));
    return true;
  });
}

}  // namespace

absl::StatusOr<Localization> Localize(const std::string& repo_root, std::string_view failure_text,
                                      const LocalizeOptions& options) {
  SMALLFIX_ASSIGN_OR_RETURN(PathMapper mapper, PathMapper::ForRepo(repo_root));
  if (IsBlank(failure_text) && IsBlank(options.junit_xml)) {
    return absl::InvalidArgumentError(
        "the failure text is empty: pass the log, issue body or JUnit XML that shows the failure");
  }
  std::vector<std::string> notes;
  std::string_view text = failure_text;
  if (text.size() > options.max_input_bytes) {
    text = TailAtLineStart(text, options.max_input_bytes);
    notes.push_back(absl::StrFormat(
        "the input has %d bytes; only its last %d were read (the failure that matters is "
        "printed last)",
        failure_text.size(), text.size()));
  }
  const bool binary = LooksBinary(text);
  if (binary) notes.push_back("the input contains binary (non-text) bytes; they were skipped");
  std::string cleaned;
  if (!binary && !ValidateUtf8(text).ok()) {
    size_t replaced = 0;
    cleaned = ReplaceInvalidUtf8(text, &replaced);
    text = cleaned;
    notes.push_back(absl::StrFormat(
        "the input holds %d byte(s) that are not UTF-8; they were read as U+FFFD", replaced));
  }

  FailureKind kind = options.kind;
  if (kind == FailureKind::kAuto)
    kind = LooksLikeJUnit(text) ? FailureKind::kJUnit : FailureKind::kLog;
  ParsedFailure parsed;
  if (kind == FailureKind::kJUnit) {
    SMALLFIX_RETURN_IF_ERROR(AppendJUnitTraces(text, &parsed));
  } else {
    parsed = ParseFailureText(text);
  }
  if (!IsBlank(options.junit_xml)) {
    // The same run's report: its structured failures join what the console printed.
    if (absl::Status status = AppendJUnitTraces(options.junit_xml, &parsed); !status.ok()) {
      notes.push_back(absl::StrFormat("the JUnit report was not read: %s", status.message()));
    }
  }

  SourceFacts facts(repo_root);
  RepoSearch search(repo_root, mapper.files());
  std::optional<Localization> localization = RankSites(parsed, mapper, facts, options, &search);
  if (!localization) {
    if (binary) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "the input looks binary (%d bytes, mostly not text) and holds no Python traceback: "
          "pass the text log or issue body that shows the failure",
          failure_text.size()));
    }
    return absl::InvalidArgumentError(absl::StrFormat(
        "no failure found in %d lines of input: expected a Python traceback (\"Traceback (most "
        "recent call last):\"), pytest failures, JUnit XML, or a faulthandler / py-spy stack dump",
        parsed.lines));
  }
  DropSitesPastEnd(facts, *localization, &notes);
  AddReadingNotes(parsed, mapper, &notes);
  if (search.cut()) {
    notes.push_back(absl::StrFormat("the repo's source was searched only up to %d MB",
                                    RepoSearch::kMaxBytes >> 20));
  }
  for (std::string& note : notes) localization->notes.push_back(std::move(note));
  return *std::move(localization);
}

}  // namespace smallfix
