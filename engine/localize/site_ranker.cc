#include "engine/localize/site_ranker.h"

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/localize/argument_check.h"
#include "engine/localize/assertion_writers.h"
#include "engine/localize/coverage_ranking.h"
#include "engine/localize/named_class.h"
#include "engine/localize/recursion_cycle.h"
#include "engine/localize/symptom.h"

namespace smallfix {
namespace {

// A frame that lies in the repo.
struct RepoFrame {
  std::string file;
  int line = 0;
  std::string printed_function;
  bool test = false;
  bool other_package = false;  // an installed copy of another package that the repo vendors
  size_t raw = 0;              // index of the frame in its trace (outermost first)
};

// One trace of the failure as site ranking weighs it (not a patch candidate): its symptom,
// its frames in the repo and how far they reach.
struct WeighedTrace {
  const Trace *trace = nullptr;
  Symptom symptom;
  std::vector<RepoFrame> frames;  // innermost first
  bool launcher = false;
  int secondary = 0;
  int reach = 0;  // 2: a non-test repo frame, 1: test frames only, 0: none
  bool under_rank_condition = false;
  bool printed_warning = false;  // a warning printed, not raised: context for any exception
};

// Scores within one trace: each frame further out is less likely.
constexpr double kOuterFrameDecay = 0.75;
// A test file or conftest.py is rarely the bug, but keep it as a fallback.
constexpr double kTestFrameFactor = 0.2;
// Traces after the primary one.
constexpr double kOtherTraceBase = 0.6;
constexpr double kOtherTraceDecay = 0.8;
// With coverage, the traceback ranking keeps most of the weight: it names the
// failing statement, coverage only says which lines failing tests run more than
// passing ones.
constexpr double kTraceWeight = 0.7;
// Another package's installed copy that the repo vendors: kept, below the
// repo's own frames.
constexpr double kOtherPackageFactor = 0.5;
// Sites found by searching the repo's text rank below every frame.
constexpr double kSearchBase = 0.3;
constexpr double kSearchDecay = 0.9;
// The caller that passed a wrong object, relative to the top site.
constexpr double kCallerFactor = 0.9;
// The repo class an error message names (named_class.h), when no frame of the
// repo's own code is printed: above the text search and test frames, below any
// frame of the repo.
constexpr double kNamedClassBase = 0.5;
// From one such definition site to the next (a named class's, a refused signature's def).
constexpr double kDefinitionSiteDecay = 0.95;
// ... and below the text search when another class has the attribute (a wrong
// object).
constexpr double kNamedClassBehindSearch = 0.25;
// The def of the function a call-signature TypeError names, when only the tests' frames are
// printed (the call is a test's; Python raised before the def's frame existed): where a named
// class's sites go.
constexpr double kSignatureDefBase = kNamedClassBase;

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

namespace {

// For "'T' object has no attribute 'a'": the parameter of the top site's
// function whose attribute the statement reads, and that function's name;
// nullopt when the statement reads `a` from something else (self, a local, a
// global).
std::optional<std::string> WrongObjectFunction(const Symptom &symptom, const Site &top,
                                               RepoSearch &search) {
  if (LastPart(symptom.exception_type) != "AttributeError") return std::nullopt;
  std::string type, attr;
  if (!RE2::PartialMatch(symptom.message, R"re(^'([\w.]+)' object has no attribute '(\w+)')re",
                         &type, &attr) ||
      type == "NoneType") {
    return std::nullopt;
  }
  std::optional<std::string> text = search.Line(top.file, top.line);
  if (!text) return std::nullopt;
  std::string function;
  const std::vector<std::string> parameters =
      search.EnclosingParameters(top.file, top.line, &function);
  const RE2 read(absl::StrCat(R"re((?:^|[^\w.])(\w+)\.)re", attr, R"re(\b)re"));
  re2::StringPiece input(*text);
  std::string object;
  while (RE2::FindAndConsume(&input, read, &object)) {
    if (object != "self" && object != "cls" &&
        std::find(parameters.begin(), parameters.end(), object) != parameters.end()) {
      return function;
    }
  }
  return std::nullopt;
}

// A RecursionError blames the cycle its frames repeat: the frame whose call to
// guard (recursion_cycle.h) first, then the turn's other repo frames, then the
// rest as printed.
void PutCycleFirst(const Trace &trace, std::vector<RepoFrame> &frames) {
  if (!IsRecursionFailure(trace.exception_type, trace.message)) return;
  const std::optional<RecursionCycle> cycle = FindRecursionCycle(trace.frames);
  if (!cycle) return;
  std::vector<bool> in_repo(trace.frames.size(), false);
  for (const RepoFrame &frame : frames) in_repo[frame.raw] = !frame.test && !frame.other_package;
  const std::optional<size_t> guard = CycleFrameToGuard(trace.frames, *cycle, in_repo);
  if (!guard) return;
  const TraceFrame &guarded = trace.frames[*guard];
  auto rank = [&](const RepoFrame &frame) {
    const TraceFrame &printed = trace.frames[frame.raw];
    if (SameFrame(printed, guarded)) return 0;
    return std::any_of(cycle->turn.begin(), cycle->turn.end(),
                       [&](size_t i) { return SameFrame(printed, trace.frames[i]); })
               ? 1
               : 2;
  };
  std::stable_sort(frames.begin(), frames.end(),
                   [&](const RepoFrame &a, const RepoFrame &b) { return rank(a) < rank(b); });
}

// An argument check raised by a repo wrapper blames the repo caller that passed
// the value (argument_check.h): it moves before the wrapper's frames.
void PutCallerFirst(const Symptom &symptom, std::vector<RepoFrame> &frames, RepoSearch &search) {
  auto first = std::find_if(frames.begin(), frames.end(),
                            [](const RepoFrame &f) { return !f.other_package; });
  if (first == frames.end()) return;
  std::vector<FramePlace> places;
  for (auto it = first; it != frames.end() && !it->other_package; ++it)
    places.push_back({it->file, it->line, it->test});
  const std::optional<size_t> caller = ArgumentCheckCaller(symptom, places, search);
  if (caller) std::rotate(first, first + static_cast<long>(*caller), first + *caller + 1);
}

}  // namespace

namespace {

// Sites by (file, line): where each is in the result's list.
using SiteIndex = std::map<std::pair<std::string, int>, size_t>;

// One trace as site ranking weighs it: its symptom and its frames in the repo, innermost
// first.
WeighedTrace Weigh(const Trace &trace, const std::string &hang_evidence, const PathMapper &mapper,
                   SourceFacts &facts, RepoSearch *search) {
  WeighedTrace weighed;
  weighed.trace = &trace;
  if (trace.kind == TraceKind::kStackDump) {
    weighed.symptom = HangSymptom(
        hang_evidence.empty() ? "stack dump of a process that did not finish" : hang_evidence);
  } else {
    weighed.symptom = ClassifySymptom(trace.exception_type, trace.message);
  }
  weighed.launcher = IsLauncherException(trace.exception_type);
  weighed.printed_warning = trace.form == "warning";
  weighed.secondary = SecondaryLevel(weighed.symptom);
  for (auto frame = trace.frames.rbegin(); frame != trace.frames.rend(); ++frame) {
    std::optional<std::string> file = mapper.Map(frame->path);
    if (!file) continue;
    const bool test = PathMapper::IsTestFile(*file);
    weighed.frames.push_back({*file, frame->line, frame->function, test,
                              mapper.IsOtherPackage(frame->path, *file),
                              static_cast<size_t>(trace.frames.rend() - frame - 1)});
    weighed.reach = std::max(weighed.reach, test ? 1 : 2);
  }
  // Frames in other packages' installed copies follow the repo's own frames.
  std::stable_partition(weighed.frames.begin(), weighed.frames.end(),
                        [](const RepoFrame &f) { return !f.other_package; });
  // A warning raised as an error (-W error) is raised inside `warnings.warn`'s
  // caller, but the statement to change is the one the warning is about: the
  // next frame out.
  if (search != nullptr && !weighed.printed_warning &&
      LastPart(trace.exception_type).ends_with("Warning")) {
    auto first = std::find_if(weighed.frames.begin(), weighed.frames.end(),
                              [](const RepoFrame &f) { return !f.test; });
    if (first != weighed.frames.end() && first + 1 != weighed.frames.end()) {
      std::optional<std::string> text = search->Line(first->file, first->line);
      if (text && text->find("warn(") != std::string::npos) std::iter_swap(first, first + 1);
    }
  }
  PutCycleFirst(trace, weighed.frames);
  if (search != nullptr) PutCallerFirst(weighed.symptom, weighed.frames, *search);
  for (const RepoFrame &frame : weighed.frames) {
    if (frame.test) continue;
    if (std::optional<StatementFacts> at = facts.At(frame.file, frame.line)) {
      weighed.under_rank_condition = at->under_rank_condition;
    }
    break;
  }
  return weighed;
}

// Best first; see the header for why each key is there.
void SortWeighed(std::vector<WeighedTrace> &weighed_traces) {
  std::stable_sort(weighed_traces.begin(), weighed_traces.end(),
                   [](const WeighedTrace &a, const WeighedTrace &b) {
                     auto key = [](const WeighedTrace &c) {
                       return std::make_tuple(!c.launcher, !c.printed_warning, !c.trace->superseded,
                                              -c.secondary, c.reach,
                                              c.secondary == 1 && c.under_rank_condition,
                                              !c.trace->truncated, c.trace->order);
                     };
                     return key(a) > key(b);
                   });
}

// The site at (file, line), added with `function` and the symptom when it is
// new.
Site &SiteAt(const std::string &file, int line, const std::string &function, const Symptom &symptom,
             Localization &result, SiteIndex &index) {
  auto [it, inserted] = index.emplace(std::make_pair(file, line), result.sites.size());
  if (inserted) {
    Site site;
    site.file = file;
    site.line = line;
    site.function = function;
    site.symptom = symptom.Text();
    site.symptom_class = symptom.symptom_class;
    result.sites.push_back(std::move(site));
  }
  return result.sites[it->second];
}

// Each hit a site (or a better score for a site already there), scored from `base` down, as
// the search ranked them.
void AddHitSites(const std::vector<SearchHit> &hits, double base, SiteIndex &index,
                 Localization &result) {
  double score = base;
  for (const SearchHit &hit : hits) {
    Site &site = SiteAt(hit.file, hit.line, "", result.symptom, result, index);
    site.score = std::max(site.score, score * hit.weight);
    score *= kDefinitionSiteDecay;
  }
}

// Sites in a repo class that the message names, when no frame of the repo's own
// code is printed (named_class.h); notes say why.
void AddNamedClassSites(RepoSearch &search, const LocalizeOptions &options, SiteIndex &index,
                        Localization &result) {
  const std::optional<NamedClass> named = ClassNamedBy(result.symptom);
  if (!named) return;
  const std::vector<SearchHit> hits =
      NamedClassSites(*named, search, static_cast<size_t>(std::max(options.max_sites, 1)));
  const bool elsewhere = AnotherClassHasAttribute(*named, search);
  AddHitSites(hits, elsewhere ? kNamedClassBehindSearch : kNamedClassBase, index, result);
  if (!hits.empty()) {
    result.notes.push_back(absl::StrFormat(
        "the error names class %s of the repo and no frame of the repo's own "
        "code is printed: "
        "its definition is a site (%s, line %d: %s)%s",
        named->name, hits.front().file, hits.front().line, hits.front().why,
        elsewhere ? absl::StrFormat("; another class has '%s', so the object may be the wrong "
                                    "one and the reads of it come first",
                                    named->attr)
                  : ""));
  }
}

// The defs of the function a call-signature TypeError names (repo_search.h), when no frame of
// the repo's own code is printed; a note says why.
void AddSignatureDefSites(RepoSearch &search, const LocalizeOptions &options, SiteIndex &index,
                          Localization &result) {
  const std::vector<SearchHit> hits =
      search.SignatureDefs(result.symptom, static_cast<size_t>(std::max(options.max_sites, 1)));
  AddHitSites(hits, kSignatureDefBase, index, result);
  if (!hits.empty()) {
    result.notes.push_back(absl::StrFormat(
        "the call's signature was refused before the callee ran and no frame of the repo's own "
        "code is printed: the callee's def is a site (%s, line %d: %s)",
        hits.front().file, hits.front().line, hits.front().why));
  }
}

// The sites of the traces' frames, merged by (file, line), each scored by
// how far out its frame is and by its trace's place.
void AddFrameSites(const std::vector<WeighedTrace> &weighed_traces, Localization &result,
                   SiteIndex &index) {
  int trace_number = 0;
  for (const WeighedTrace &weighed : weighed_traces) {
    if (weighed.launcher) continue;  // never blamed
    const double base =
        trace_number == 0 ? 1.0 : kOtherTraceBase * std::pow(kOtherTraceDecay, trace_number - 1);
    if (!weighed.frames.empty()) ++trace_number;
    int outer = 0;
    int outer_test = 0;
    bool in_harness = false;
    for (const RepoFrame &frame : weighed.frames) {
      // A repo frame outside (a caller of) a test frame runs the test: a
      // launcher that spawns it on each rank, a script's main. It is the
      // harness, not the code under test, and ranks below the test's own
      // frames.
      in_harness |= frame.test && !frame.other_package;
      double score = frame.test ? base * kTestFrameFactor * std::pow(kOuterFrameDecay, outer_test++)
                     : in_harness
                         ? base * kTestFrameFactor * std::pow(kOuterFrameDecay, outer_test++ + 1)
                         : base * std::pow(kOuterFrameDecay, outer++);
      if (frame.other_package) score *= kOtherPackageFactor;
      Site &site =
          SiteAt(frame.file, frame.line, frame.printed_function, weighed.symptom, result, index);
      if (score > site.score) {
        site.score = score;
        site.symptom = weighed.symptom.Text();
        site.symptom_class = weighed.symptom.symptom_class;
      }
      if (weighed.trace->rank >= 0 && std::find(site.ranks.begin(), site.ranks.end(),
                                                weighed.trace->rank) == site.ranks.end()) {
        site.ranks.push_back(weighed.trace->rank);
      }
    }
  }
}
// Nothing printed points into the repo: the sites are what searching the repo's
// source for what the message names finds.
void AddSearchSites(RepoSearch &search, const LocalizeOptions &options, Localization &result,
                    SiteIndex &index) {
  const std::vector<SearchHit> hits =
      search.ForSymptom(result.symptom, static_cast<size_t>(std::max(options.max_sites, 1)));
  double score = kSearchBase;
  for (const SearchHit &hit : hits) {
    if (!index.emplace(std::make_pair(hit.file, hit.line), result.sites.size()).second) continue;
    Site site;
    site.file = hit.file;
    site.line = hit.line;
    site.score = score * hit.weight;
    site.symptom = result.symptom.Text();
    site.symptom_class = result.symptom.symptom_class;
    result.sites.push_back(std::move(site));
    score *= kSearchDecay;
  }
  if (!hits.empty()) {
    result.notes.push_back(
        absl::StrFormat("no frame of the failure lies in the repo: the sites come from "
                        "searching the repo's "
                        "source for what the message names (the best %s, line %d: %s); they "
                        "are less certain "
                        "than a frame",
                        hits.front().file, hits.front().line, hits.front().why));
  } else {
    result.notes.push_back(
        "no frame of the failure lies in the repo, and "
        "searching the repo's source for what "
        "the message names found nothing");
  }
}

// Raises the site of the frame that called `top` (the frame after it in a
// trace) to `want`; false when no trace has such a caller among the sites.
bool RaiseCallerFrame(const std::vector<WeighedTrace> &weighed_traces, const Site &top, double want,
                      Localization &result, const SiteIndex &index) {
  for (const WeighedTrace &weighed : weighed_traces) {
    for (size_t k = 0; k + 1 < weighed.frames.size(); ++k) {
      if (weighed.frames[k].file != top.file || weighed.frames[k].line != top.line) continue;
      const RepoFrame &caller = weighed.frames[k + 1];
      auto it = index.find(std::make_pair(caller.file, caller.line));
      if (it != index.end()) {
        Site &site = result.sites[it->second];
        site.score = std::max(site.score, want);
        return true;
      }
    }
  }
  return false;
}

// The callee read an attribute of a wrong object: its caller passed it. The
// caller's frame is raised to just below the top site, else the calls of the
// function in the repo are added.
void AddCallerSites(const std::vector<WeighedTrace> &weighed_traces, RepoSearch &search,
                    Localization &result, SiteIndex &index) {
  auto top = std::max_element(result.sites.begin(), result.sites.end(),
                              [](const Site &a, const Site &b) { return a.score < b.score; });
  std::optional<std::string> function = WrongObjectFunction(result.symptom, *top, search);
  if (!function) return;
  const double want = top->score * kCallerFactor;
  const std::pair<std::string, int> top_key(top->file, top->line);
  if (RaiseCallerFrame(weighed_traces, *top, want, result, index)) return;
  double score = want;
  for (const SearchHit &hit : search.Callers(*function, 5)) {
    if (std::make_pair(hit.file, hit.line) == top_key) continue;
    Site &site = SiteAt(hit.file, hit.line, "", result.symptom, result, index);
    site.score = std::max(site.score, score * hit.weight);
    score *= kSearchDecay;
  }
  result.notes.push_back(absl::StrCat("the failing statement reads an attribute of a parameter of ",
                                      *function, "(); the calls of ", *function,
                                      "() in the repo are sites too (the object passed "
                                      "may be the wrong one)"));
}

// Best first, at most options.max_sites, each with its statement's function and
// bytes.
void FinishSites(SourceFacts &facts, const LocalizeOptions &options, Localization &result) {
  std::stable_sort(result.sites.begin(), result.sites.end(),
                   [](const Site &a, const Site &b) { return a.score > b.score; });
  // With coverage the sites in test files (the failing assertion) are listed but never
  // edited, so they do not take the places of lines coverage found.
  const bool count_tests = options.coverage_scores.empty();
  if (options.max_sites >= 0) {
    size_t kept = 0;
    int counted = 0;
    for (; kept < result.sites.size(); ++kept) {
      if (!count_tests && PathMapper::IsTestFile(result.sites[kept].file)) continue;
      if (counted++ == options.max_sites) break;
    }
    result.sites.resize(kept);
  }
  for (Site &site : result.sites) {
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
}

}  // namespace

std::optional<Localization> RankSites(const ParsedFailure &parsed, const PathMapper &mapper,
                                      SourceFacts &facts, const LocalizeOptions &options,
                                      RepoSearch *search) {
  const std::string hang_evidence =
      parsed.hang_lines.empty() ? std::string() : parsed.hang_lines.front();
  std::vector<WeighedTrace> weighed_traces;
  std::vector<const Trace *> summaries;
  for (const Trace &trace : parsed.traces) {
    if (trace.kind == TraceKind::kSummary) {
      summaries.push_back(&trace);
    } else {
      weighed_traces.push_back(Weigh(trace, hang_evidence, mapper, facts, search));
    }
  }
  SortWeighed(weighed_traces);

  Localization result;
  if (!weighed_traces.empty()) {
    result.symptom = weighed_traces.front().symptom;
  } else if (!summaries.empty()) {
    result.symptom = ClassifySymptom(summaries.back()->exception_type, summaries.back()->message);
  } else if (!hang_evidence.empty()) {
    result.symptom = HangSymptom(hang_evidence);
  } else {
    return std::nullopt;
  }
  SiteIndex index;
  AddFrameSites(weighed_traces, result, index);
  const bool no_frame = result.sites.empty();
  if (search != nullptr && (weighed_traces.empty() || weighed_traces.front().reach < 2)) {
    AddNamedClassSites(*search, options, index, result);
    AddSignatureDefSites(*search, options, index, result);
  }
  if (search != nullptr && no_frame) AddSearchSites(*search, options, result, index);
  if (search != nullptr && !result.sites.empty()) {
    AddCallerSites(weighed_traces, *search, result, index);
  }
  if (!options.coverage_scores.empty()) {
    std::vector<std::pair<std::string, int>> assertion_lines;
    for (const Site &site : result.sites) {
      if (PathMapper::IsTestFile(site.file)) assertion_lines.push_back({site.file, site.line});
    }
    const LineScores writers = AssertionWriters(facts, assertion_lines, options.coverage_scores);
    if (!writers.empty()) {
      result.notes.push_back(absl::StrFormat(
          "%d line(s) that write what the failing test's assertion reads (and their guards) "
          "rank first among the lines coverage ties",
          writers.size()));
    }
    CombineWithCoverage(options.coverage_scores, kTraceWeight, result.symptom, writers,
                        &result.sites);
  }
  FinishSites(facts, options, result);
  if (parsed.dropped_traces) {
    result.notes.push_back(
        "the input held more tracebacks than are kept; only "
        "the last were read");
  }
  return result;
}

}  // namespace smallfix
