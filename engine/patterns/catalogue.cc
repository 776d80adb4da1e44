#include "engine/patterns/catalogue.h"

#include <cstdlib>
#include <filesystem>

#include "engine/base/concat.h"
#include "engine/patterns/template_loader.h"

namespace smallfix {

std::string DefaultTemplateDir() {
  if (const char* env = std::getenv("SMALLFIX_TEMPLATES"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    // build/smallfix -> templates/ at the repository root.
    for (auto dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      if (std::filesystem::is_directory(dir / "templates" / "guard", error)) {
        return (dir / "templates").string();
      }
    }
  }
  return SMALLFIX_TEMPLATE_DIR;
}

absl::StatusOr<Catalogue> Catalogue::Load(const std::string& dir) {
  Catalogue catalogue;
  catalogue.dir = dir.empty() ? DefaultTemplateDir() : dir;
  absl::StatusOr<std::vector<Template>> templates = LoadTemplates(catalogue.dir);
  if (!templates.ok()) return templates.status();
  if (templates->empty()) {
    return absl::InvalidArgumentError(
        Concat("no template in ", catalogue.dir, ": expected *.yaml template files"));
  }
  catalogue.templates = *std::move(templates);
  const std::filesystem::path history =
      std::filesystem::path(catalogue.dir) / "compat" / "api_history.yaml";
  std::error_code error;
  if (std::filesystem::exists(history, error)) {
    absl::StatusOr<ApiHistory> loaded = ApiHistory::Load(history.string());
    if (!loaded.ok()) return loaded.status();
    catalogue.history = *std::move(loaded);
  }
  return catalogue;
}

}  // namespace smallfix
