#ifndef SMALLFIX_ENGINE_PATTERNS_MATCH_H_
#define SMALLFIX_ENGINE_PATTERNS_MATCH_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/patterns/api_history.h"
#include "engine/patterns/placeholders.h"
#include "engine/patterns/template.h"
#include "engine/source/document.h"
#include "engine/source/file_change.h"
#include "engine/symptom/symptom.h"

namespace smallfix {

class ModuleFacts;
struct RuntimeFacts;
class RepoIndex;

// What the C++ side lends templates' look-ups. Every member may be absent; a look-up that
// needs a missing one does not match.
struct MatchContext {
  const RepoIndex* index = nullptr;
  const ApiHistory* history = nullptr;
  // Reads another repo file (for edits in a callee's file), by repo-relative path.
  std::function<absl::StatusOr<Document>(const std::string& file)> load;
  // Whole-module facts kept across the templates and sites of one generation; nullptr: each
  // look-up computes what it needs.
  ModuleFacts* facts = nullptr;
  // What the failing run knew at its exception (engine/facts): the look-ups that read it do not
  // match without it.
  const RuntimeFacts* runtime = nullptr;
};

// A template applied at one place.
struct Candidate {
  std::string template_id;
  std::string family;
  std::string summary;
  std::string file;  // the site's file
  int line = 0;      // the site's line, 1-based
  double symptom_score =
      0;  // how well the template's symptom matched, 0..1 (0: generic or not matched)
  double prior =
      0;  // the template's prior (repair shares it among a generic template's candidates at a site)
  std::vector<FileChange> changes;
  Bindings bindings;  // what the placeholders were (for explanations)
  bool weak = false;  // the template's `weak` (template.h): validation looks past it
  // Places the template's one edit is made: 1, and one more for each other match a `fix-all`
  // template rewrites too (the ranker counts the size of one, as for copies of copied code).
  int places = 1;
};

// The fact of the failing run a candidate rests on (the look-ups that read runtime facts bind
// it as `fact`), or "".
inline std::string FactOf(const Candidate& candidate) {
  auto fact = candidate.bindings.find("fact");
  return fact == candidate.bindings.end() ? "" : fact->second;
}

// Whether a template whose symptom does not match the failure is tried.
enum class SymptomMode {
  kRequire,   // no: `templates test` checks that a template answers its own symptoms
  kRankOnly,  // yes, with symptom score 0, so it ranks after those that match (repair)
};

// Every way `t` applies at `line` (1-based) of `document` for `symptom`. A template that
// does not apply gives an empty list; `reasons`, when given, collects why (for `templates
// test` and --explain).
std::vector<Candidate> MatchTemplate(const Template& t, const Document& document, int line,
                                     const Symptom& symptom, const MatchContext& context,
                                     std::vector<std::string>* reasons = nullptr,
                                     SymptomMode mode = SymptomMode::kRequire);

// For `smallfix scan`: the candidates of one match of a query that ran over the whole
// module, with no failure. `statement` holds the match's site, on `line` (1-based);
// `binds` stand in for a symptom's groups; `after_lookups` are checked after the look-ups.
std::vector<Candidate> MatchAtStatement(const Template& t, const Document& document,
                                        TSNode statement, int line, const QueryMatch& match,
                                        const Bindings& binds,
                                        const std::vector<Template::Condition>& after_lookups,
                                        const MatchContext& context,
                                        std::vector<std::string>* reasons = nullptr);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_MATCH_H_
