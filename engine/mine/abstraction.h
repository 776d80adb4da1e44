#ifndef SMALLFIX_ENGINE_MINE_ABSTRACTION_H_
#define SMALLFIX_ENGINE_MINE_ABSTRACTION_H_

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/source/document.h"

namespace smallfix::mine {

// Names kept as they are in an abstract shape: constants, self/cls, common builtins and
// modules, exception types. Everything else is a placeholder.
bool IsWellKnownName(std::string_view name);

// Writes code with identifiers replaced by placeholders ($A, $B, ... in order of first use),
// numbers by $N and string contents by $S; keywords, operators and well-known names stay.
// One Abstracter names one hunk, so the same identifier gets the same placeholder in the
// before and after code of the hunk. Layout is normalised: a line break is "; " (or a
// space after a ':'), other spacing one space.
class Abstracter {
 public:
  std::string Abstract(const Document& document, const std::vector<TSNode>& nodes);
  std::string Abstract(const Document& document, TSNode node) {
    return Abstract(document, std::vector{node});
  }

  // The placeholder given to `identifier` so far, or "" when it has none.
  std::string PlaceholderOf(std::string_view identifier) const;
  // The identifiers that have placeholders, by placeholder.
  const absl::flat_hash_map<std::string, std::string>& names() const { return names_; }

 private:
  std::string Name(std::string_view identifier);

  absl::flat_hash_map<std::string, std::string> names_;
};

}  // namespace smallfix::mine

#endif  // SMALLFIX_ENGINE_MINE_ABSTRACTION_H_
