#ifndef SMALLFIX_ENGINE_FACTS_GUARD_SYNTHESIS_H_
#define SMALLFIX_ENGINE_FACTS_GUARD_SYNTHESIS_H_

// Guard synthesis: the conditions over the values in scope at a guard site that hold in the
// failing run and in none of the passing runs at that line. Guard templates put the best few in
// their condition holes (`if {guard}: continue`, `if {guard_negation}: ...`) and the tests decide
// which one is right. A pure function of the facts and the site.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/facts/runtime_facts.h"

namespace smallfix {

// Where a guard would go, as the synthesis needs to know it.
struct GuardSite {
  std::string file;  // repo-relative, as the facts name frames
  int line = 0;      // 1-based
  // The source of the statement at the site: a condition on what it reads is likelier the
  // guard it lacks than one on another name.
  std::string statement;
  // Whether a name (a module: `torch`, `dist`) is bound at the site, so a condition may name
  // it (`isinstance(x, torch.Tensor)`); unset: only builtins are named.
  std::function<bool(std::string_view)> bound;
};

struct GuardCondition {
  std::string condition;  // Python that held in the failing run: "p.grad is None"
  std::string negation;   // its negation, written plainly: "p.grad is not None"
  std::string subject;    // what it reads: "p.grad"
  // The facts it rests on, for reports: "`p.grad` was None at m.py:9 in the failing run and
  // not None in 2 passing runs".
  std::string evidence;
  int passing_against = 0;  // passing tests that ran the line with `condition` false
  double score = 0;         // 0..1, higher is better evidence
};

// The best `limit` conditions at `site`, best first; empty when the facts have no frame there
// or nothing there separates the runs. A condition true in any passing run at the line is
// dropped; one no passing run contradicts or confirms is kept only at the frame that raised,
// when it names a value that often breaks code by itself (None, empty, zero, a world size of
// one) of a kind that explains the exception.
std::vector<GuardCondition> SynthesizeGuards(const RuntimeFacts& facts, const GuardSite& site,
                                             size_t limit = 3);

// Where `code` first reads `expression` whole (`p.grad` in `p.grad.numel()`, but not in
// `up.grad` nor `p.gradient`); std::string_view::npos when it does not.
size_t FindExpression(std::string_view code, std::string_view expression);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FACTS_GUARD_SYNTHESIS_H_
