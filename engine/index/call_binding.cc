#include "engine/index/call_binding.h"

#include <algorithm>

#include "engine/index/tree_walk.h"
#include "engine/source/comma_list.h"
#include "engine/source/syntax.h"

namespace smallfix {

bool CallBinding::Fills(std::string_view parameter) const {
  return std::find(filled.begin(), filled.end(), parameter) != filled.end();
}

CallBinding BindCall(const Document& document, TSNode call, const std::vector<ParamInfo>& params) {
  using Kind = Parameter::Kind;
  CallBinding binding;
  std::vector<const ParamInfo*> positional_slots;
  for (const ParamInfo& param : params) {
    binding.takes_var_positional |= param.kind == Kind::kVarPositional;
    binding.takes_var_keyword |= param.kind == Kind::kVarKeyword;
    if (param.kind == Kind::kPositionalOnly || param.kind == Kind::kPositionalOrKeyword) {
      positional_slots.push_back(&param);
    }
  }
  auto fill = [&](const std::string& name) {
    if (binding.Fills(name)) {
      binding.repeated.push_back(name);
    } else {
      binding.filled.push_back(name);
    }
  };
  TSNode arguments = Field(call, "arguments");
  // A generator argument, f(x for x in xs), is one positional; its node is not a list.
  if (IsType(arguments, "generator_expression")) {
    binding.positionals.push_back(arguments);
  } else {
    for (TSNode item : ListItems(arguments)) {
      if (IsType(item, "list_splat")) {
        binding.has_list_splat = true;
      } else if (IsType(item, "dictionary_splat")) {
        binding.has_dict_splat = true;
      } else if (IsType(item, "keyword_argument")) {
        binding.keywords.emplace_back(document.NodeText(Field(item, "name")));
      } else {
        binding.positionals.push_back(item);
      }
    }
  }
  for (size_t i = 0; i < binding.positionals.size(); ++i) {
    if (i < positional_slots.size()) {
      fill(positional_slots[i]->name);
    } else if (!binding.takes_var_positional) {
      binding.excess_positionals.push_back(binding.positionals[i]);
    }
  }
  for (const std::string& keyword : binding.keywords) {
    auto param = std::find_if(params.begin(), params.end(), [&](const ParamInfo& p) {
      return p.name == keyword && p.kind != Kind::kVarPositional && p.kind != Kind::kVarKeyword;
    });
    if (param != params.end() && param->kind != Kind::kPositionalOnly) {
      fill(keyword);
    } else if (!binding.takes_var_keyword) {
      binding.unknown_keywords.push_back(keyword);
    }
  }
  return binding;
}

}  // namespace smallfix
