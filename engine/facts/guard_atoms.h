#ifndef SMALLFIX_ENGINE_FACTS_GUARD_ATOMS_H_
#define SMALLFIX_ENGINE_FACTS_GUARD_ATOMS_H_

// The predicates guard synthesis tries (guard_atoms.cc has one row per kind), before they are
// checked against the runs. Internal to engine/facts.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/facts/guard_synthesis.h"
#include "engine/facts/runtime_facts.h"

namespace smallfix {

// One predicate P over a value in scope, in Python both ways round.
struct GuardAtom {
  std::string subject;                // what it reads: "p.grad"
  std::string root;                   // the local it reads: "p"; "" for process state
  std::string when_true, when_false;  // P and not-P: "p.grad is None", "... is not None"
  std::string said_true, said_false;  // for evidence: "was None", "was not None"
  bool telling = false;               // P alone points at a failure (None, empty, zero)
  // For a telling P, the failures it explains: a guard no passing run speaks for is written
  // only when the failing run's exception is of that kind (a None check for a ZeroDivisionError
  // is a guess about another failure).
  enum class Explains { kAny, kNone, kEmpty, kMeta } explains = Explains::kAny;
  double weight = 0;  // how often a guard of its kind is the fix, 0..1
  // P of the root's value in one run; nullopt when that value does not say.
  std::function<std::optional<bool>(const ValueFacts&)> holds;
  std::optional<bool> process;  // P in the failing run, for atoms with no root
};

// What the rows read for one local of the failing frame.
struct AtomInput {
  const std::string& name;
  const ValueFacts& failing;
  const std::vector<const ValueFacts*>& passing;  // the same local in each passing run that had it
  const RuntimeFacts& facts;
  const GuardSite& site;
};

// Whether the failing run's exception is one a telling atom of that kind explains.
bool ExplainsException(GuardAtom::Explains kind, const ExceptionFacts& exception);

// Every predicate the rows make for one local.
std::vector<GuardAtom> LocalAtoms(const AtomInput& input);
// Predicates over the process rather than a local (the world size).
std::vector<GuardAtom> ProcessAtoms(const RuntimeFacts& facts, const GuardSite& site);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FACTS_GUARD_ATOMS_H_
