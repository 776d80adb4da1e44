#include "validators/ranks/rank_outcome.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/junit/junit_reader.h"

namespace smallfix {
namespace {

// Failed test names a summary lists.
constexpr size_t kNamesInSummary = 3;

// JUnit collection: every rank's report counted into `tally`; false when one is missing or
// unreadable (a crash before pytest wrote it).
bool CollectJUnit(const std::string& dir, int world, CaseTally& tally) {
  bool complete = true;
  for (int rank = 0; rank < world; ++rank) {
    absl::StatusOr<std::string> xml = ReadFile(RankJUnitPath(dir, rank));
    absl::StatusOr<std::vector<JUnitCase>> cases =
        xml.ok() ? ReadJUnit(*xml) : absl::StatusOr<std::vector<JUnitCase>>(xml.status());
    if (!cases.ok()) {
      complete = false;
      continue;
    }
    TallyCases(*cases, tally);
  }
  return complete;
}

// The ranks' output, each line prefixed with its rank the way launchers print (one rank:
// as it is).
std::string JoinOutput(const std::vector<ProcessResult>& ranks) {
  if (ranks.size() == 1) return ranks[0].output;
  std::string out;
  for (size_t rank = 0; rank < ranks.size(); ++rank) {
    const std::string& output = ranks[rank].output;
    size_t begin = 0;
    while (begin < output.size()) {
      size_t end = output.find('\n', begin);
      if (end == std::string::npos) end = output.size();
      out += Concat("[rank", std::to_string(rank),
                    "]:", std::string_view(output).substr(begin, end - begin), "\n");
      begin = end + 1;
    }
  }
  return out;
}

// Summary: the one line a report shows for the run.
std::string Summarize(const TestRun& run, const RankRunFacts& facts, bool junit_complete,
                      const std::vector<std::string>& failed,
                      const std::vector<ProcessResult>& ranks) {
  if (run.cancelled) return "cancelled";
  if (run.timed_out)
    return absl::StrFormat("timed out after %.0f s (killed)", facts.time_limit_seconds);
  if (run.passed) return facts.pytest ? absl::StrFormat("%d passed", run.tests) : "exit 0";
  if (facts.pytest && run.failures > 0) {
    const std::vector<std::string> names(failed.begin(),
                                         failed.begin() + std::min(failed.size(), kNamesInSummary));
    return absl::StrFormat("%d failed of %d (%s)", run.failures, run.tests,
                           absl::StrJoin(names, ", "));
  }
  if (facts.pytest && run.tests == 0 && junit_complete) return "no test ran";
  for (const ProcessResult& result : ranks) {
    if (result.ok()) continue;
    if (result.term_signal) return absl::StrFormat("killed by signal %d", result.term_signal);
    return absl::StrFormat("exit %d", result.exit_code);
  }
  return "exit 0";
}

}  // namespace

std::string RankJUnitPath(const std::string& dir, int rank) {
  return absl::StrFormat("%s/rank%d.xml", dir, rank);
}

TestRun ScoreRanks(const std::vector<ProcessResult>& ranks, const RankRunFacts& facts) {
  TestRun out;
  out.cancelled = facts.cancelled;
  out.seconds = facts.seconds;
  bool all_exit_zero = true;
  for (const ProcessResult& result : ranks) {
    all_exit_zero &= result.ok();
    out.timed_out |= result.timed_out;
  }
  out.output = JoinOutput(ranks);
  CaseTally tally;
  const bool junit_complete =
      facts.pytest && CollectJUnit(facts.junit_dir, static_cast<int>(ranks.size()), tally);
  out.tests = facts.pytest ? tally.tests : -1;
  out.failures = tally.failures;
  out.passed = all_exit_zero && !out.timed_out && !out.cancelled &&
               (!facts.pytest || (junit_complete && out.tests > 0 && out.failures == 0));
  out.summary = Summarize(out, facts, junit_complete, tally.failed, ranks);
  return out;
}

}  // namespace smallfix
