#include "engine/patterns/catalogue.h"

#include <cstdlib>
#include <filesystem>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/template_loader.h"

namespace smallfix {

namespace {

// $`variable` when set, else `relative` in the nearest folder above the running binary that
// has `marker` (build/smallfix -> the checkout's root), else `fallback` (the source tree).
std::string FindData(const char* variable, const std::filesystem::path& relative,
                     const std::filesystem::path& marker, const char* fallback) {
  if (const char* env = std::getenv(variable); env != nullptr && *env != '\0') return env;
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    for (auto dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      if (std::filesystem::exists(dir / marker, error)) return (dir / relative).string();
    }
  }
  return fallback;
}

}  // namespace

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
