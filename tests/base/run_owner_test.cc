#include "engine/base/run_owner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

// The owner of a process that has ended: a child that exited and was reaped.
RunOwner DeadOwner() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  RunOwner owner = ThisProcess();
  owner.pid = child;
  return owner;
}

TEST(RunOwnerTest, NamesRecordTheirOwner) {
  const std::string tag = OwnerTag(ThisProcess());
  for (const std::string& name : {"smallfix-" + tag + "-Ab12Cd", "smallfix-run-" + tag + "-Ab12Cd",
                                  "smallfix-" + tag + "-3-c12", "smallfix-" + tag}) {
    ASSERT_TRUE(OwnerOfName(name).has_value()) << name;
    EXPECT_EQ(*OwnerOfName(name), ThisProcess()) << name;
  }
  // Names smallfix did not make, or made before owner tags: no owner.
  for (const char* name : {"smallfix-experiment", "smallfix-reproduce", "smallfix-c1",
                           "smallfix-Ab12Cd", "smallfix/issue-3", "smallfix-run-Ab12Cd",
                           "other-42.7.0a1b2c3d-x", "smallfix-42.7.0A1B2C3D-x",
                           "smallfix-+42.7.0a1b2c3d-x", "smallfix-Run-42.7.0a1b2c3d-x",
                           "smallfix-42.7-x"}) {
    EXPECT_FALSE(OwnerOfName(name).has_value()) << name;
  }
}

TEST(RunOwnerTest, TellsLiveDeadAndOtherMachines) {
  EXPECT_GT(ThisProcess().start_ticks, 0u);
  EXPECT_EQ(StateOf(ThisProcess()), OwnerState::kAlive);
  EXPECT_EQ(StateOf(DeadOwner()), OwnerState::kDead);
  RunOwner reused = ThisProcess();  // this pid, another start time: the pid was reused
  reused.start_ticks += 1;
  EXPECT_EQ(StateOf(reused), OwnerState::kDead);
  RunOwner elsewhere = DeadOwner();
  elsewhere.host = elsewhere.host == "00000000" ? "00000001" : "00000000";
  EXPECT_EQ(StateOf(elsewhere), OwnerState::kElsewhere);
}

}  // namespace
}  // namespace smallfix
