#ifndef SMALLFIX_ENGINE_LOCALIZE_RECURSION_CYCLE_H_
#define SMALLFIX_ENGINE_LOCALIZE_RECURSION_CYCLE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/localize/trace.h"

namespace smallfix {

// The frames a RecursionError's traceback repeats. Python prints a frame that calls itself
// three times and then "[Previous line repeated N more times]"; a cycle of two or more
// functions is printed in full (a thousand turns), and users paste its head and tail.
struct RecursionCycle {
  // Indices into the frames (outermost first) of the cycle's frames, each at its first
  // printing, outermost first: the frames printed more than once (a frame that is on the stack
  // twice called itself back) and the calls from one recursive function (printed more than
  // once, at any line) into another. The first is where the cycle was entered, when the paste
  // shows it.
  std::vector<size_t> turn;
  size_t turns = 0;  // the most times one of them is printed
};

// True for the failures a recursion raises: RecursionError, and "maximum recursion depth
// exceeded" under another type (RuntimeError before Python 3.5, a re-raise).
bool IsRecursionFailure(std::string_view exception_type, std::string_view message);

// The cycle of a traceback's frames; nullopt when no frame is printed twice.
bool SameFrame(const TraceFrame& a, const TraceFrame& b);
std::optional<RecursionCycle> FindRecursionCycle(const std::vector<TraceFrame>& frames);

// The frame of the cycle whose call to guard: a method that Python calls for attribute or
// item access (`__getattr__`, `__setattr__`, `__getattribute__`, `__getitem__`, ...) when the
// turn has one, since that is where a missing base case recurses; else the turn's first frame
// (the function the cycle was entered by). An index into `frames`, one of `cycle.turn`.
// `in_repo` says which frames may be chosen; nullopt when none of the turn's may.
std::optional<size_t> CycleFrameToGuard(const std::vector<TraceFrame>& frames,
                                        const RecursionCycle& cycle,
                                        const std::vector<bool>& in_repo);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_RECURSION_CYCLE_H_
