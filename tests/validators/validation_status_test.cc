#include "validators/validation_status.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

// Reports and the bench read these names; two enumerators with one name would merge outcomes.
TEST(ValidationStatusTest, EveryStatusHasItsOwnReportName) {
  std::set<std::string> names;
  for (ValidationStatus status : {ValidationStatus::kPlausible, ValidationStatus::kFailed, ValidationStatus::kError,
                                  ValidationStatus::kTimeout, ValidationStatus::kSkipped}) {
    names.insert(std::string(ValidationStatusName(status)));
  }
  EXPECT_EQ(names, (std::set<std::string>{"plausible", "failed", "error", "timeout", "skipped"}));
  EXPECT_EQ(StageKindName(StageKind::kRegression), "regression");
  EXPECT_EQ(StageStatusName(StageStatus::kTimeout), "timeout");
}

// A validation ends with the status of the stage that stopped it: a hung test is a timeout,
// not a failure, and a stage that could not run is an error.
TEST(ValidationStatusTest, OutcomeFollowsTheStoppingStage) {
  EXPECT_EQ(OutcomeOf(StageStatus::kFailed), ValidationStatus::kFailed);
  EXPECT_EQ(OutcomeOf(StageStatus::kTimeout), ValidationStatus::kTimeout);
  EXPECT_EQ(OutcomeOf(StageStatus::kError), ValidationStatus::kError);
}

}  // namespace
}  // namespace smallfix
