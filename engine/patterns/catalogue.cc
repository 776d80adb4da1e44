#include "engine/patterns/catalogue.h"

#include <cstdlib>
#include <filesystem>

#include "engine/base/concat.h"
#include "engine/base/data_path.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/template_loader.h"

namespace smallfix {

std::string DefaultTemplateDir() {
  return FindData("SMALLFIX_TEMPLATES", "templates", "templates/guard", SMALLFIX_TEMPLATE_DIR);
}

std::string DefaultApiHistoryPath() {
  return FindData("SMALLFIX_API_HISTORY", "api_history/changes.yaml", "api_history/changes.yaml",
                  SMALLFIX_API_HISTORY_FILE);
}

absl::StatusOr<Catalogue> Catalogue::Load(const std::string& dir, const std::string& history_path) {
  Catalogue catalogue;
  catalogue.dir = dir.empty() ? DefaultTemplateDir() : dir;
  absl::StatusOr<std::vector<Template>> templates = LoadTemplates(catalogue.dir);
  if (!templates.ok()) return templates.status();
  if (templates->empty()) {
    return absl::InvalidArgumentError(
        Concat("no template in ", catalogue.dir, ": expected *.yaml template files"));
  }
  catalogue.templates = *std::move(templates);
  const std::string history = history_path.empty() ? DefaultApiHistoryPath() : history_path;
  std::error_code error;
  if (std::filesystem::exists(history, error)) {
    SMALLFIX_ASSIGN_OR_RETURN(ApiHistory loaded, ApiHistory::Load(history));
    catalogue.history = std::move(loaded);
  }
  return catalogue;
}

}  // namespace smallfix
