#ifndef SMALLFIX_ENGINE_INDEX_MODULE_FACTS_H_
#define SMALLFIX_ENGINE_INDEX_MODULE_FACTS_H_

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "engine/index/undefined_names.h"
#include "engine/source/document.h"

namespace smallfix {

// Facts about a whole module that several look-ups read at every site of a repair (the names
// it never binds, ...): each computed once per module text and kept for as long as this
// object lives, one candidate generation. Keyed by the document's path and text, so an
// edited copy of a module is a module of its own. Thread-safe.
class ModuleFacts {
 public:
  // UndefinedNames(document), computed on the first call for this text.
  std::optional<std::vector<UndefinedName>> UndefinedNamesOf(const Document& document);

 private:
  using Key = std::tuple<std::string, size_t, size_t>;  // path, text size, text hash
  static Key KeyOf(const Document& document);

  std::mutex mutex_;
  std::map<Key, std::optional<std::vector<UndefinedName>>> undefined_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_MODULE_FACTS_H_
