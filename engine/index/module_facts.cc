#include "engine/index/module_facts.h"

#include <functional>
#include <string_view>

namespace smallfix {

ModuleFacts::Key ModuleFacts::KeyOf(const Document& document) {
  const std::string_view text = document.text();
  return {std::string(document.path()), text.size(), std::hash<std::string_view>{}(text)};
}

std::optional<std::vector<UndefinedName>> ModuleFacts::UndefinedNamesOf(const Document& document) {
  const Key key = KeyOf(document);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = undefined_.find(key);
    if (it != undefined_.end()) return it->second;
  }
  std::optional<std::vector<UndefinedName>> names = UndefinedNames(document);
  std::lock_guard<std::mutex> lock(mutex_);
  return undefined_.emplace(key, std::move(names)).first->second;
}

}  // namespace smallfix
