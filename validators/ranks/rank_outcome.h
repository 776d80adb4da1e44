#ifndef SMALLFIX_VALIDATORS_RANKS_RANK_OUTCOME_H_
#define SMALLFIX_VALIDATORS_RANKS_RANK_OUTCOME_H_

#include <string>
#include <vector>

#include "validators/process/process.h"
#include "validators/test_runner.h"

namespace smallfix {

// The JUnit report rank `rank` writes into `dir` (pytest commands get --junitxml=this).
std::string RankJUnitPath(const std::string& dir, int rank);

// What a run of one or more ranks was, besides each rank's process result.
struct RankRunFacts {
  bool pytest = false;     // the command runs pytest: its JUnit reports decide
  std::string junit_dir;   // where the ranks wrote them (RankJUnitPath)
  bool cancelled = false;  // stopped on request (Ctrl-C, or a better candidate won)
  double seconds = 0;
  double time_limit_seconds = 0;  // for the summary of a run that timed out
};

// A run's TestRun from its ranks' process results (one per rank, in rank order) and the
// JUnit reports they wrote: passed when every rank exited 0 and, for pytest, every rank's
// report is there and shows tests and no failure. Every runner scores its ranks this way,
// whether it started them itself or a scheduler did.
TestRun ScoreRanks(const std::vector<ProcessResult>& ranks, const RankRunFacts& facts);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_RANKS_RANK_OUTCOME_H_
