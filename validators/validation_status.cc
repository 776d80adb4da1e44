#include "validators/validation_status.h"

namespace smallfix {

std::string_view StageKindName(StageKind kind) {
  switch (kind) {
    case StageKind::kSyntax:
      return "syntax";
    case StageKind::kWorkspace:
      return "workspace";
    case StageKind::kCompile:
      return "compile";
    case StageKind::kBuild:
      return "build";
    case StageKind::kTest:
      return "test";
    case StageKind::kRegression:
      return "regression";
  }
  return "unknown";
}

std::string_view StageStatusName(StageStatus status) {
  switch (status) {
    case StageStatus::kPassed:
      return "passed";
    case StageStatus::kFailed:
      return "failed";
    case StageStatus::kTimeout:
      return "timeout";
    case StageStatus::kError:
      return "error";
  }
  return "unknown";
}

std::string_view ValidationStatusName(ValidationStatus status) {
  switch (status) {
    case ValidationStatus::kPlausible:
      return "plausible";
    case ValidationStatus::kFailed:
      return "failed";
    case ValidationStatus::kError:
      return "error";
    case ValidationStatus::kTimeout:
      return "timeout";
    case ValidationStatus::kSkipped:
      return "skipped";
  }
  return "unknown";
}

ValidationStatus OutcomeOf(StageStatus status) {
  switch (status) {
    case StageStatus::kPassed:
      return ValidationStatus::kPlausible;
    case StageStatus::kFailed:
      return ValidationStatus::kFailed;
    case StageStatus::kTimeout:
      return ValidationStatus::kTimeout;
    case StageStatus::kError:
      return ValidationStatus::kError;
  }
  return ValidationStatus::kError;
}

}  // namespace smallfix
