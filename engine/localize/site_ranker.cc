#include "engine/localize/site_ranker.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/localize/coverage_ranking.h"
#include "engine/localize/symptom.h"

namespace smallfix {
namespace {

// A frame that lies in the repo.
struct RepoFrame {
  std::string file;
  int line = 0;
  std::string printed_function;
  bool test = false;
};

struct Candidate {
  const Trace* trace = nullptr;
  Symptom symptom;
  std::vector<RepoFrame> frames;  // innermost first
  bool launcher = false;
  int secondary = 0;
  int reach = 0;  // 2: a non-test repo frame, 1: test frames only, 0: none
  bool under_rank_condition = false;
};

// Scores within one trace: each frame further out is less likely.
constexpr double kOuterFrameDecay = 0.75;
// A test file or conftest.py is rarely the bug, but keep it as a fallback.
constexpr double kTestFrameFactor = 0.2;
// Traces after the primary one.
constexpr double kOtherTraceBase = 0.6;
constexpr double kOtherTraceDecay = 0.8;
// With coverage, the traceback ranking keeps most of the weight: it names the failing
// statement, coverage only says which lines failing tests run more than passing ones.
constexpr double kTraceWeight = 0.7;

std::string_view LastPart(std::string_view type) {
  const size_t dot = type.rfind('.');
  return dot == std::string_view::npos ? type : type.substr(dot + 1);
}

}  // namespace

bool IsLauncherException(std::string_view exception_type) {
  const std::string_view last = LastPart(exception_type);
  return last == "ChildFailedError" || last == "ProcessRaisedException" ||
         last == "ProcessExitedException" || last == "SignalException";
}

std::optional<Localization> RankSites(const ParsedFailure& parsed, const PathMapper& mapper,
                                      SourceFacts& facts, const LocalizeOptions& options) {
  const std::string hang_evidence =
      parsed.hang_lines.empty() ? std::string() : parsed.hang_lines.front();
  std::vector<Candidate> candidates;
  std::vector<const Trace*> summaries;
  for (const Trace& trace : parsed.traces) {
    if (trace.kind == TraceKind::kSummary) {
      summaries.push_back(&trace);
      continue;
    }
    Candidate candidate;
    candidate.trace = &trace;
    if (trace.kind == TraceKind::kStackDump) {
      candidate.symptom = HangSymptom(
          hang_evidence.empty() ? "stack dump of a process that did not finish" : hang_evidence);
    } else {
      candidate.symptom = ClassifySymptom(trace.exception_type, trace.message);
    }
    candidate.launcher = IsLauncherException(trace.exception_type);
    candidate.secondary = SecondaryLevel(candidate.symptom);
    for (auto frame = trace.frames.rbegin(); frame != trace.frames.rend(); ++frame) {
      std::optional<std::string> file = mapper.Map(frame->path);
      if (!file) continue;
      const bool test = PathMapper::IsTestFile(*file);
      candidate.frames.push_back({*file, frame->line, frame->function, test});
      candidate.reach = std::max(candidate.reach, test ? 1 : 2);
    }
    for (const RepoFrame& frame : candidate.frames) {
      if (frame.test) continue;
      if (std::optional<StatementFacts> at = facts.At(frame.file, frame.line)) {
        candidate.under_rank_condition = at->under_rank_condition;
      }
      break;
    }
    candidates.push_back(std::move(candidate));
  }

  // Best first; see the header for why each key is there.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     auto key = [](const Candidate& c) {
                       return std::make_tuple(!c.launcher, !c.trace->superseded, -c.secondary,
                                              c.reach,
                                              c.secondary == 1 && c.under_rank_condition,
                                              !c.trace->truncated, c.trace->order);
                     };
                     return key(a) > key(b);
                   });

  Localization result;
  if (!candidates.empty()) {
    result.symptom = candidates.front().symptom;
  } else if (!summaries.empty()) {
    result.symptom = ClassifySymptom(summaries.back()->exception_type, summaries.back()->message);
  } else if (!hang_evidence.empty()) {
    result.symptom = HangSymptom(hang_evidence);
  } else {
    return std::nullopt;
  }

  // Sites, merged by (file, line).
  std::map<std::pair<std::string, int>, size_t> index;
  int trace_number = 0;
  for (const Candidate& candidate : candidates) {
    if (candidate.launcher) continue;  // never blamed
    const double base =
        trace_number == 0 ? 1.0 : kOtherTraceBase * std::pow(kOtherTraceDecay, trace_number - 1);
    if (!candidate.frames.empty()) ++trace_number;
    int outer = 0;
    int outer_test = 0;
    for (const RepoFrame& frame : candidate.frames) {
      const double score = frame.test ? base * kTestFrameFactor * std::pow(kOuterFrameDecay, outer_test++)
                                      : base * std::pow(kOuterFrameDecay, outer++);
      const auto key = std::make_pair(frame.file, frame.line);
      auto [it, inserted] = index.emplace(key, result.sites.size());
      if (inserted) {
        Site site;
        site.file = frame.file;
        site.line = frame.line;
        site.function = frame.printed_function;
        site.symptom = candidate.symptom.Text();
        site.symptom_class = candidate.symptom.symptom_class;
        result.sites.push_back(std::move(site));
      }
      Site& site = result.sites[it->second];
      if (score > site.score) {
        site.score = score;
        site.symptom = candidate.symptom.Text();
        site.symptom_class = candidate.symptom.symptom_class;
      }
      if (candidate.trace->rank >= 0 &&
          std::find(site.ranks.begin(), site.ranks.end(), candidate.trace->rank) == site.ranks.end()) {
        site.ranks.push_back(candidate.trace->rank);
      }
    }
  }

  if (!options.coverage_scores.empty()) {
    CombineWithCoverage(options.coverage_scores, kTraceWeight, result.symptom, &result.sites);
  }

  std::stable_sort(result.sites.begin(), result.sites.end(),
                   [](const Site& a, const Site& b) { return a.score > b.score; });
  if (options.max_sites >= 0 && result.sites.size() > static_cast<size_t>(options.max_sites)) {
    result.sites.resize(options.max_sites);
  }
  for (Site& site : result.sites) {
    std::sort(site.ranks.begin(), site.ranks.end());
    site.score = std::clamp(site.score, 0.0, 1.0);
    if (std::optional<StatementFacts> at = facts.At(site.file, site.line)) {
      site.function = at->function;
      site.start_byte = at->start_byte;
      site.end_byte = at->end_byte;
    } else if (site.function.empty()) {
      site.function = "<module>";
    }
  }
  if (parsed.dropped_traces) {
    result.notes.push_back("the input held more tracebacks than are kept; only the last were read");
  }
  return result;
}

}  // namespace smallfix
