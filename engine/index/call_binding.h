#ifndef SMALLFIX_ENGINE_INDEX_CALL_BINDING_H_
#define SMALLFIX_ENGINE_INDEX_CALL_BINDING_H_

#include <tree_sitter/api.h>

#include <string>
#include <vector>

#include "engine/index/symbols.h"
#include "engine/source/document.h"

namespace smallfix {

// How a call's arguments fill a def's parameters, as Python binds them: the static check of
// a call against its callee's signature, which needs no failure to show a keyword the def
// does not take, a required parameter left out or a positional argument too many.
struct CallBinding {
  bool has_list_splat = false;        // *xs at the call: how many positionals it gives is unknown
  bool has_dict_splat = false;        // **kw at the call: which keywords it gives is unknown
  std::vector<TSNode> positionals;    // the positional arguments, in order (no splats)
  std::vector<std::string> keywords;  // the keyword names passed, in order
  std::vector<std::string> filled;    // the parameters the arguments fill, each once
  // Keywords no parameter takes (the def has no **kwargs), or that only a positional-only one has.
  std::vector<std::string> unknown_keywords;
  // Positional arguments past the def's positional parameters (the def has no *args).
  std::vector<TSNode> excess_positionals;
  // Parameters filled twice (by position and by keyword).
  std::vector<std::string> repeated;
  bool takes_var_positional = false;  // the def has *args
  bool takes_var_keyword = false;     // the def has **kwargs

  bool Fills(std::string_view parameter) const;
};

// Binds `call` (a `call` node of `document`) to `params`: the parameters the call passes,
// without the self or cls Python passes itself (see FunctionInfo::CallableParams).
CallBinding BindCall(const Document& document, TSNode call, const std::vector<ParamInfo>& params);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_CALL_BINDING_H_
