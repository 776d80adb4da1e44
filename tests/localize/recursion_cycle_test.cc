#include "engine/localize/recursion_cycle.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace smallfix {
namespace {

using ::testing::ElementsAre;

TraceFrame F(const char* function, int line) { return {"/w/pkg/m.py", line, function}; }

TEST(RecursionCycleTest, OneFrameCallingItself) {
  const std::vector<TraceFrame> frames = {F("<module>", 4), F("summary", 26), F("__getattr__", 23),
                                          F("__getattr__", 23), F("__getattr__", 23)};
  const std::optional<RecursionCycle> cycle = FindRecursionCycle(frames);
  ASSERT_TRUE(cycle.has_value());
  EXPECT_THAT(cycle->turn, ElementsAre(2u));
  EXPECT_EQ(cycle->turns, 3u);
  EXPECT_EQ(CycleFrameToGuard(frames, *cycle, std::vector<bool>(5, true)), 2u);
}

TEST(RecursionCycleTest, ALongerTurnIsEnteredWhereThePasteShowsItFirst) {
  // to_device -> _move -> <listcomp> -> to_device ..., pasted as head, "...", tail: the tail's
  // turns start elsewhere in the turn, the head shows where the cycle was entered.
  const std::vector<TraceFrame> frames = {F("<module>", 5),
                                          F("to_device", 10),
                                          F("_move", 14),
                                          F("<listcomp>", 14),
                                          F("to_device", 10),
                                          F("_move", 14),
                                          F("<listcomp>", 14),
                                          F("to_device", 10),
                                          /* ... */ F("<listcomp>", 14),
                                          F("to_device", 10),
                                          F("_move", 14),
                                          F("<listcomp>", 14),
                                          F("to_device", 10),
                                          F("_move", 14),
                                          F("<listcomp>", 14),
                                          F("to_device", 6)};
  const std::optional<RecursionCycle> cycle = FindRecursionCycle(frames);
  ASSERT_TRUE(cycle.has_value());
  ASSERT_EQ(cycle->turn.size(), 3u);
  EXPECT_EQ(cycle->turn[0], 1u);
  EXPECT_EQ(cycle->turns, 5u);
  EXPECT_EQ(frames[cycle->turn[1]].function, "_move");
  EXPECT_EQ(CycleFrameToGuard(frames, *cycle, std::vector<bool>(frames.size(), true)), 1u);
}

TEST(RecursionCycleTest, AnAttributeHookIsTheCallToGuard) {
  const std::vector<TraceFrame> frames = {F("main", 1),         F("device", 30),
                                          F("__getattr__", 12), F("device", 30),
                                          F("__getattr__", 12), F("device", 30)};
  const std::optional<RecursionCycle> cycle = FindRecursionCycle(frames);
  ASSERT_TRUE(cycle.has_value());
  EXPECT_EQ(CycleFrameToGuard(frames, *cycle, std::vector<bool>(frames.size(), true)), 2u);
  // Frames outside the repo are never chosen.
  std::vector<bool> in_repo(frames.size(), true);
  in_repo[2] = in_repo[4] = false;
  EXPECT_EQ(CycleFrameToGuard(frames, *cycle, in_repo), 1u);
}

TEST(RecursionCycleTest, NoRepetitionNoCycle) {
  EXPECT_FALSE(FindRecursionCycle({F("a", 1), F("b", 2), F("a", 2)}).has_value());
  EXPECT_FALSE(FindRecursionCycle({}).has_value());
  // The same frame twice on one stack is a recursion, however the paste was cut.
  EXPECT_TRUE(FindRecursionCycle({F("a", 1), F("b", 2), F("a", 1)}).has_value());
  EXPECT_TRUE(IsRecursionFailure("RecursionError", ""));
  EXPECT_TRUE(IsRecursionFailure("RuntimeError", "maximum recursion depth exceeded while calling"));
  EXPECT_FALSE(IsRecursionFailure("KeyError", "'a'"));
}

}  // namespace
}  // namespace smallfix
