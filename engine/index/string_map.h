#ifndef SMALLFIX_ENGINE_INDEX_STRING_MAP_H_
#define SMALLFIX_ENGINE_INDEX_STRING_MAP_H_

#include <functional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace smallfix {

// Hash containers keyed by std::string that find std::string_view keys without a copy.
// Abseil's own string hashing is transparent only for absl::string_view, which Debian's
// Abseil does not alias to std::string_view.
struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
struct StringViewEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

template <typename Value>
using StringMap = absl::flat_hash_map<std::string, Value, StringViewHash, StringViewEq>;
using StringSet = absl::flat_hash_set<std::string, StringViewHash, StringViewEq>;

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_STRING_MAP_H_
