#ifndef SMALLFIX_ENGINE_LOCALIZE_LOCALIZER_H_
#define SMALLFIX_ENGINE_LOCALIZE_LOCALIZER_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/localize/localization.h"

namespace smallfix {

// Finds the statements to repair from a failure a user pasted: a console log, pytest output,
// a GitHub issue body or pytest JUnit XML (see LocalizeOptions::kind), against the repo at
// `repo_root`.
//
// Errors: InvalidArgument when the input is empty, binary or holds no failure at all (the
// message says which and what to pass instead); NotFound when `repo_root` is not a
// directory. A failure whose frames all lie outside the repo is not an error: the
// localization has its symptom and no sites.
absl::StatusOr<Localization> Localize(const std::string& repo_root, std::string_view failure_text,
                                      const LocalizeOptions& options = {});

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_LOCALIZER_H_
