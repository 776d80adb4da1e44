#include "engine/bench/realbugs/bug_tree.h"

#include <cstdlib>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/base/concat.h"
#include "validators/process/process.h"
#include "validators/process/python_env.h"

namespace smallfix::realbugs {
namespace {

// Runs scripts/realbugs.py with `args`; its last line of output, or an error with what it said.
absl::StatusOr<std::string> RunScript(std::vector<std::string> args, double limit_seconds,
                                      const std::atomic<bool>* cancel) {
  ProcessOptions process;
  process.argv = {DefaultInterpreter(), SMALLFIX_REALBUGS_SCRIPT};
  process.env["SMALLFIX_REALBUGS_DIR"] = RealbugsDir();  // bugs.jsonl and envs/ of the run
  process.argv.insert(process.argv.end(), args.begin(), args.end());
  process.time_limit_seconds = limit_seconds;
  process.cancel = cancel;
  absl::StatusOr<ProcessResult> ran = RunProcess(process);
  if (!ran.ok()) return ran.status();
  std::string output(absl::StripTrailingAsciiWhitespace(ran->output));
  if (ran->timed_out)
    return absl::DeadlineExceededError(Concat("realbugs.py ", args[0], " timed out"));
  if (!ran->ok())
    return absl::FailedPreconditionError(output.empty() ? Concat("realbugs.py ", args[0], " failed")
                                                        : output);
  const size_t last = output.rfind('\n');
  return last == std::string::npos ? output : output.substr(last + 1);
}

}  // namespace

std::string RealbugsDir() {
  if (const char* env = std::getenv("SMALLFIX_REALBUGS_DIR"); env != nullptr && *env != '\0')
    return env;
  return SMALLFIX_REALBUGS_DIR;
}

absl::StatusOr<std::string> MakeTree(const RealBug& bug, Side side, const std::string& dest,
                                     const TreeSource& source, const std::atomic<bool>* cancel) {
  // A PyPI tree may download two source distributions the first time.
  return RunScript({"tree", "--bug", bug.id, "--side", side == Side::kBuggy ? "buggy" : "fixed",
                    "--dest", dest, "--from", source.from, "--mirror-root", source.mirror_root},
                   600, cancel);
}

absl::StatusOr<std::string> BugInterpreter(const RealBug& bug) {
  return RunScript({"python", "--env", bug.env}, 60, nullptr);
}

}  // namespace smallfix::realbugs
