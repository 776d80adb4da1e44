#include "engine/patterns/api_history.h"

#include <yaml-cpp/yaml.h>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"

namespace smallfix {

absl::StatusOr<ApiHistory> ApiHistory::Load(const std::string& path) {
  std::vector<ApiChange> changes;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    const YAML::Node list = root["changes"];
    if (!list.IsSequence()) {
      return absl::InvalidArgumentError(Concat(path, ": expected a 'changes:' list"));
    }
    for (const YAML::Node& entry : list) {
      ApiChange change;
      for (const auto& item : entry) {
        const std::string key = item.first.as<std::string>();
        const std::string value = item.second.as<std::string>();
        if (key == "module")
          change.module = value;
        else if (key == "old")
          change.old_name = value;
        else if (key == "new")
          change.new_name = value;
        else if (key == "since")
          change.since = value;
        else if (key == "removed")
          change.removed = value;
        else if (key == "kind")
          change.kind = value;
        else if (key == "source")
          change.source = value;
        else {
          return absl::InvalidArgumentError(absl::StrFormat(
              "%s:%d: unknown key '%s' in an API change", path, item.first.Mark().line + 1, key));
        }
      }
      if (change.module.empty() || change.old_name.empty() || change.new_name.empty() ||
          change.since.empty() || change.source.empty()) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s:%d: an API change needs module, old, new, since and source", path,
                            entry.Mark().line + 1));
      }
      if (change.kind.empty()) change.kind = "rename";
      changes.push_back(std::move(change));
    }
  } catch (const YAML::BadFile&) {
    return absl::NotFoundError(Concat("cannot read the API-history table ", path));
  } catch (const YAML::Exception& error) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: %s", path, error.mark.line + 1, error.msg));
  }
  return FromChanges(std::move(changes));
}

std::vector<const ApiChange*> ApiHistory::Find(std::string_view name,
                                               std::string_view module) const {
  std::vector<const ApiChange*> found;
  for (const ApiChange& change : changes_) {
    if (change.old_name != name && change.new_name != name) continue;
    if (!module.empty() && change.module != module &&
        !change.module.ends_with(Concat(".", module))) {
      continue;
    }
    found.push_back(&change);
  }
  return found;
}

}  // namespace smallfix
