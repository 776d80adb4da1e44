// The `repo-getter` look-up: the repo's own accessor for a value a def fills in with a
// library default (`group = dist.group.WORLD` where the repo has
// `parallel_state.get_tensor_model_parallel_group()`).
#include <algorithm>
#include <cctype>
#include <set>

#include "engine/base/concat.h"
#include "engine/index/imports.h"
#include "engine/index/repo_index.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

constexpr size_t kMaxGetters = 3;

// Lower-case words of `text`: runs of letters and digits.
std::set<std::string> Words(std::string_view text) {
  std::set<std::string> words;
  std::string word;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.insert(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.insert(std::move(word));
  return words;
}

// `get_<...>_<name>` or `get_<name>`, a module-level def every parameter of which has a default.
bool IsGetterOf(const FunctionInfo& function, std::string_view name) {
  if (function.is_method || !function.name.starts_with("get_")) return false;
  if (function.name != Concat("get_", name) && !function.name.ends_with(Concat("_", name)))
    return false;
  return std::all_of(function.params.begin(), function.params.end(), [](const ParamInfo& p) {
    return p.has_default || p.kind == Parameter::Kind::kVarPositional ||
           p.kind == Parameter::Kind::kVarKeyword;
  });
}

}  // namespace

absl::Status RepoGetter(const LookupArgs& args, const MatchContext& context, MatchState& state,
                        std::vector<MatchState>& more) {
  if (context.index == nullptr) return LookupFails("no repo index to find getters in");
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  const RepoIndex& index = *context.index;
  // What the def says it is about (its name, docstring and comments): the getter whose name
  // shares most words with it comes first ("tensor-model-parallel group").
  std::optional<TSNode> def = EnclosingOfType(state.statement, {"function_definition"});
  const std::set<std::string> about =
      Words(def ? document.NodeText(*def) : document.NodeText(state.statement));
  std::vector<std::pair<int, std::string>> found;
  std::set<std::string> seen;
  const std::string module = index.ModuleNameOf(document.path());
  for (const ImportBinding& binding :
       ImportsOf(document, module, document.path().ends_with("__init__.py"))) {
    if (!binding.top_level || binding.module.empty() || binding.name == "*") continue;
    const std::string as_module =
        binding.name.empty() ? binding.module : Concat(binding.module, ".", binding.name);
    for (const FunctionInfo& function : index.functions()) {
      std::string call;
      if (function.module == as_module) {
        call =
            Concat(binding.local_name, ".", function.name, "()");  // from pkg import parallel_state
      } else if (function.module == binding.module && function.name == binding.name) {
        call = Concat(binding.local_name, "()");  // from pkg.parallel_state import get_group
      } else {
        continue;
      }
      if (!IsGetterOf(function, name) || !seen.insert(call).second) continue;
      int shared = 0;
      for (const std::string& word : Words(function.name)) shared += about.count(word) > 0;
      found.emplace_back(shared, std::move(call));
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> getters;
  for (size_t i = 0; i < found.size() && i < kMaxGetters; ++i) getters.push_back(found[i].second);
  return BindEach("getter", getters, state, more,
                  Concat("no imported repo module has a getter of `", name, "`"));
}

}  // namespace smallfix
