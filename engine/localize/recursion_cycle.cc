#include "engine/localize/recursion_cycle.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

namespace smallfix {
namespace {

// Frames looked at from each end: a 100 MB log of a cycle stays cheap to read.
constexpr size_t kMaxFrames = 4096;

bool IsAccessHook(std::string_view function) {
  static constexpr std::string_view kHooks[] = {
      "__getattr__",   "__getattribute__", "__setattr__", "__delattr__",  "__getitem__",
      "__setitem__",   "__deepcopy__",     "__copy__",    "__getstate__", "__setstate__",
      "__reduce_ex__", "__repr__",         "__eq__",      "__hash__"};
  return std::find(std::begin(kHooks), std::end(kHooks), function) != std::end(kHooks);
}

}  // namespace

bool SameFrame(const TraceFrame& a, const TraceFrame& b) {
  return a.line == b.line && a.function == b.function && a.path == b.path;
}

bool IsRecursionFailure(std::string_view exception_type, std::string_view message) {
  return exception_type.ends_with("RecursionError") ||
         message.find("maximum recursion depth exceeded") != std::string_view::npos;
}

std::optional<RecursionCycle> FindRecursionCycle(const std::vector<TraceFrame>& all) {
  // A frame (file, line, function) that is on the stack twice called itself back: the frames
  // printed more than once are the cycle, whatever the paste cut between them ("..." in the
  // middle of a 2000-line cycle). The head holds the entry, the tail the innermost frames.
  // Frames are looked at from both ends.
  std::vector<size_t> looked;
  for (size_t i = 0; i < all.size() && i < kMaxFrames; ++i) looked.push_back(i);
  for (size_t i = std::max(all.size() > kMaxFrames ? all.size() - kMaxFrames : 0, kMaxFrames);
       i < all.size(); ++i) {
    looked.push_back(i);
  }
  // Frames and functions printed more than once. A frame of a recursive function that calls
  // another recursive function's frame is in the cycle too: the paste may show that call once
  // (its other turns were cut) while the functions around it recur.
  std::map<std::tuple<std::string_view, int, std::string_view>, size_t> frame_count;
  std::map<std::pair<std::string_view, std::string_view>, size_t> function_count;
  for (size_t i : looked) {
    ++frame_count[{all[i].path, all[i].line, all[i].function}];
    ++function_count[{all[i].path, all[i].function}];
  }
  auto recursive = [&](size_t i) { return function_count[{all[i].path, all[i].function}] > 1; };
  RecursionCycle cycle;
  std::set<std::tuple<std::string_view, int, std::string_view>> taken;
  for (size_t k = 0; k < looked.size(); ++k) {
    const size_t i = looked[k];
    const auto key = std::make_tuple(std::string_view(all[i].path), all[i].line,
                                     std::string_view(all[i].function));
    const size_t count = frame_count[key];
    const bool calls_recursive = k + 1 < looked.size() && recursive(i) && recursive(looked[k + 1]);
    if ((count > 1 || calls_recursive) && taken.insert(key).second) cycle.turn.push_back(i);
    cycle.turns = std::max(cycle.turns, count);
  }
  if (cycle.turn.empty() || cycle.turns < 2) return std::nullopt;
  return cycle;
}

std::optional<size_t> CycleFrameToGuard(const std::vector<TraceFrame>& frames,
                                        const RecursionCycle& cycle,
                                        const std::vector<bool>& in_repo) {
  std::optional<size_t> first;
  for (size_t i : cycle.turn) {
    if (i >= frames.size() || i >= in_repo.size() || !in_repo[i]) continue;
    if (IsAccessHook(frames[i].function)) return i;
    if (!first) first = i;
  }
  return first;
}

}  // namespace smallfix
