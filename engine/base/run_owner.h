#ifndef SMALLFIX_ENGINE_BASE_RUN_OWNER_H_
#define SMALLFIX_ENGINE_BASE_RUN_OWNER_H_

#include <optional>
#include <string>
#include <string_view>

namespace smallfix {

// Whose is a thing a run of smallfix makes outside its own memory (a scratch directory in
// $TMPDIR, a worktree or a branch in the user's repository): the process that made it, named
// so that a later run can tell whether that process still runs and clean up after it if not
// (SIGKILL, the OOM killer and a closed laptop give a run no chance to clean up itself).
//
// A process is named by its pid, its start time (clock ticks after boot, field 22 of
// /proc/PID/stat: a pid reused by another process has another start time) and a hash of the
// host name (a $TMPDIR on a file system that several machines share holds other machines'
// runs, whose pids mean nothing here). Its tag, "PID.START.HOST" (HOST 8 hex digits), is the
// part of every such name that records the owner: smallfix-run-4242.880123.0a1b2c3d-Ab12Cd.
struct RunOwner {
  long pid = 0;
  unsigned long long start_ticks = 0;
  std::string host;  // 8 hex digits

  bool operator==(const RunOwner&) const = default;
};

// This process.
const RunOwner& ThisProcess();

// "PID.START.HOST" of `owner`.
std::string OwnerTag(const RunOwner& owner);

// The owner recorded in a name "smallfix[-word...]-TAG[-rest]" made by smallfix (worktree,
// branch and scratch directory names), or nullopt for any other name.
std::optional<RunOwner> OwnerOfName(std::string_view name);

enum class OwnerState {
  kAlive,      // that process still runs (a zombie does not)
  kDead,       // it has ended: what it left may be removed
  kElsewhere,  // another machine's: never touched
};
OwnerState StateOf(const RunOwner& owner);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_RUN_OWNER_H_
