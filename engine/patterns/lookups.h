#ifndef SMALLFIX_ENGINE_PATTERNS_LOOKUPS_H_
#define SMALLFIX_ENGINE_PATTERNS_LOOKUPS_H_

#include <tree_sitter/api.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/patterns/match.h"
#include "engine/patterns/placeholders.h"
#include "engine/source/document.h"

namespace smallfix {

struct FunctionInfo;

// A context look-up that templates name in `context:`; the table says which arguments
// each takes and which placeholders it binds.
struct LookupSpec {
  const char* kind;
  std::vector<const char*> args;
  std::vector<const char*> binds;
  const char* summary;
};
const std::vector<LookupSpec>& LookupSpecs();
const LookupSpec* FindLookupSpec(std::string_view kind);

// State a match carries from look-ups to actions: nodes by capture name, and the callee
// a `callee` look-up resolved (actions may edit its file).
struct MatchState {
  const Document* document = nullptr;
  TSNode statement{};
  std::map<std::string, TSNode, std::less<>> nodes;
  Bindings bindings;
  const FunctionInfo* callee = nullptr;
};

// Runs one look-up with its arguments expanded. OK and new bindings when it holds;
// NotFound (with the reason) when it does not, and the match is dropped.
absl::Status RunLookup(const std::string& kind, const std::map<std::string, std::string>& args,
                       const MatchContext& context, MatchState& state);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_LOOKUPS_H_
