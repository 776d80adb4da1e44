#ifndef SMALLFIX_VALIDATORS_VALIDATION_STATUS_H_
#define SMALLFIX_VALIDATORS_VALIDATION_STATUS_H_

#include <string_view>

namespace smallfix {

// The stages a candidate goes through, in the order ValidateCandidate runs them. kWorkspace
// is not a check of the candidate: it names a failure to set up its worktree.
enum class StageKind { kSyntax, kWorkspace, kCompile, kBuild, kTest, kRegression };

enum class StageStatus { kPassed, kFailed, kTimeout, kError };

// plausible: every stage passed; skipped: never validated (--no-validate, or stopped because
// a better-ranked candidate won or the run was interrupted).
enum class ValidationStatus { kPlausible, kFailed, kError, kTimeout, kSkipped };

// The names used in reports (JSON, SARIF, text); strings exist only at those edges.
std::string_view StageKindName(StageKind kind);
std::string_view StageStatusName(StageStatus status);
std::string_view ValidationStatusName(ValidationStatus status);

// The outcome of a validation that stopped at a stage with this (non-passed) status.
ValidationStatus OutcomeOf(StageStatus status);

}  // namespace smallfix

#endif  // SMALLFIX_VALIDATORS_VALIDATION_STATUS_H_
