#ifndef SMALLFIX_ENGINE_PATTERNS_REWRITER_H_
#define SMALLFIX_ENGINE_PATTERNS_REWRITER_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/patterns/match.h"
#include "engine/patterns/template.h"
#include "engine/source/edit.h"

namespace smallfix {

// The edits of one file that a candidate makes.
struct FileEdits {
  Document document;
  EditSet edits;
};

using ActionArgs = std::map<std::string, std::string>;

// Applies one action with its arguments (placeholders unexpanded) to the files of a match.
using ActionFn = absl::Status (*)(const ActionArgs& args, const MatchContext& context,
                                  MatchState& state, std::map<std::string, FileEdits>& files);

// A rewrite action that templates name in `rewrite:`: its YAML name, its arguments
// (required, then optional) and the function that applies it. The loader and the rewriter
// read this one table.
struct ActionSpec {
  ActionKind kind;
  const char* name;
  std::vector<const char*> required;
  std::vector<const char*> optional;
  ActionFn apply;
};
const std::vector<ActionSpec>& ActionSpecs();
// The spec named `name` in YAML, or nullptr.
const ActionSpec* FindActionSpec(std::string_view name);
const ActionSpec& SpecOf(ActionKind kind);

// Turns one template action, with its arguments expanded from `state.bindings`, into
// edits. Most actions edit the site's file; `add-parameter` and `set-default` on the
// `callee` edit the callee's file, read through `context.load`. A failure (a target that
// is not the right kind of node, a keyword already passed) means the match is dropped.
absl::Status ApplyAction(const Template::Action& action, const MatchContext& context,
                         MatchState& state, std::map<std::string, FileEdits>& files);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_REWRITER_H_
