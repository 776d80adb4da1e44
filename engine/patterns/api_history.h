#ifndef SMALLFIX_ENGINE_PATTERNS_API_HISTORY_H_
#define SMALLFIX_ENGINE_PATTERNS_API_HISTORY_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// One API change of a library the frameworks depend on: `old_name` in `module` became
// `new_name` in release `since` (and `old_name` may be gone after `removed`). Facts with
// their source (a release note, an upstream PR), read from api_history/changes.yaml.
struct ApiChange {
  std::string module;    // "torch.distributed"
  std::string old_name;  // "_all_gather_base"
  std::string new_name;  // "all_gather_into_tensor"
  std::string since;     // "torch 1.13"
  std::string removed;   // "" when the old name still exists
  std::string kind;  // "rename" (same call shape) | "module-move" | "drop-in" (another package's
                     // equivalent)
  std::string source;
};

class ApiHistory {
 public:
  static absl::StatusOr<ApiHistory> Load(const std::string& path);
  static ApiHistory FromChanges(std::vector<ApiChange> changes) {
    ApiHistory history;
    history.changes_ = std::move(changes);
    return history;
  }

  // Changes where `name` is the old or the new name (and, when given, `module` matches
  // the change's module or ends with it: "dist" matches nothing, "torch.distributed" does).
  std::vector<const ApiChange*> Find(std::string_view name, std::string_view module = "") const;
  const std::vector<ApiChange>& changes() const { return changes_; }

 private:
  std::vector<ApiChange> changes_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_API_HISTORY_H_
