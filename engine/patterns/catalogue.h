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

  // Loads `dir` (or, when empty, the default: $SMALLFIX_TEMPLATES, else templates/ beside
  // the build directory of the running binary, else the source tree's templates/).
  static absl::StatusOr<Catalogue> Load(const std::string& dir = "");
};

std::string DefaultTemplateDir();

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_CATALOGUE_H_
