#ifndef SMALLFIX_ENGINE_PATTERNS_LOOKUPS_LOOKUP_H_
#define SMALLFIX_ENGINE_PATTERNS_LOOKUPS_LOOKUP_H_

#include <tree_sitter/api.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/patterns/match.h"
#include "engine/patterns/placeholders.h"
#include "engine/patterns/template.h"
#include "engine/source/document.h"

namespace smallfix {

struct FunctionInfo;

// State a match carries from look-ups to actions: nodes by capture name (a look-up may
// add nodes too, e.g. the first statement of a function), and the callee a `callee`
// look-up resolved (actions may edit its file).
struct MatchState {
  const Document* document = nullptr;
  TSNode statement{};
  std::map<std::string, TSNode, std::less<>> nodes;
  Bindings bindings;
  const FunctionInfo* callee = nullptr;
  // The callee as the failing run saw it (`real-callee`), which `callee` then points at: an
  // installed or C function has no def in the index.
  std::shared_ptr<const FunctionInfo> real_callee;
};

using LookupArgs = std::map<std::string, std::string>;

// Answers one look-up with its arguments expanded: OK with new bindings in `state` when it
// holds, NotFound (with the reason) when it does not and the match is dropped. A look-up
// with several answers (the names nearest to one, the other comparison operators) binds
// the first in `state` and appends a copy of `state` for each further one to `more`.
using LookupBody = absl::Status(const LookupArgs& args, const MatchContext& context,
                                MatchState& state, std::vector<MatchState>& more);

// A context look-up that templates name in `context:`: its YAML name, the arguments it
// takes, the placeholders (or nodes) it binds, and the function that answers it.
struct LookupSpec {
  const char* name;
  std::vector<const char*> args;
  std::vector<const char*> binds;
  LookupBody* run;
  const char* summary;
  // `scan` indexes the repo first for a template with this look-up: its answer needs to be
  // sure what a call reaches. Other look-ups that read the index go without it in a scan.
  bool index_in_scan = false;
  // It reads the failing run's facts (MatchContext::runtime) and holds nowhere without them: a
  // repair whose facts arrive after generation matches only the templates with such a look-up
  // again (ReadsRuntimeFacts).
  bool reads_facts = false;
};
// Every look-up, one row each (lookups/table.cc): the only registry.
const std::vector<LookupSpec>& LookupSpecs();
// The row named `name` in YAML, or nullptr.
const LookupSpec* FindLookupSpec(std::string_view name);
// Whether one of the template's look-ups reads the failing run's facts.
bool ReadsRuntimeFacts(const Template& t);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_LOOKUPS_LOOKUP_H_
