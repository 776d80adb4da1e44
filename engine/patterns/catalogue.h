#ifndef SMALLFIX_ENGINE_PATTERNS_CATALOGUE_H_
#define SMALLFIX_ENGINE_PATTERNS_CATALOGUE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/patterns/api_history.h"
#include "engine/patterns/template.h"

namespace smallfix {

// The templates of one run and the API-history table they read, loaded once.
struct Catalogue {
  std::string dir;
  std::vector<Template> templates;
  std::optional<ApiHistory> history;

  // Loads the templates of `dir` and the table at `history_path`; each, when empty, from its
  // default. No table where the file does not exist (the `api-rename` look-up then fails).
  static absl::StatusOr<Catalogue> Load(const std::string& dir = "",
                                        const std::string& history_path = "");
};

// $SMALLFIX_TEMPLATES, else templates/ beside the build directory of the running binary,
// else the source tree's templates/.
std::string DefaultTemplateDir();
// $SMALLFIX_API_HISTORY, else api_history/changes.yaml found as templates/ is, else the
// source tree's.
std::string DefaultApiHistoryPath();

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_CATALOGUE_H_
