#include "engine/facts/guard_synthesis.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_format.h"
#include "engine/base/text.h"
#include "engine/facts/guard_atoms.h"

namespace smallfix {
namespace {

// Locals no guard is written about: modules, functions and classes in scope.
constexpr std::string_view kSkippedTypes[] = {
    "module", "function", "builtin_function_or_method", "method", "type", "ABCMeta",
};

bool Skipped(const std::string& name, const ValueFacts& value) {
  if (name.starts_with("__") || name.starts_with("@")) return true;
  return std::find(std::begin(kSkippedTypes), std::end(kSkippedTypes), value.type) !=
         std::end(kSkippedTypes);
}

bool Reads(std::string_view code, std::string_view expression) {
  return FindExpression(code, expression) != std::string_view::npos;
}

// The passing runs' entries at the site's line.
std::vector<const PassingFacts*> PassingAt(const RuntimeFacts& facts, const GuardSite& site) {
  std::vector<const PassingFacts*> at;
  for (const PassingFacts& passing : facts.passing) {
    if (passing.file == site.file && passing.line == site.line) at.push_back(&passing);
  }
  return at;
}

// One atom checked against the runs: the condition the right way round, or nullopt when it
// does not separate them.
std::optional<GuardCondition> Judge(const GuardAtom& atom, std::optional<bool> failing,
                                    const std::vector<const PassingFacts*>& passing,
                                    const ExceptionFacts& exception, bool raising,
                                    const GuardSite& site) {
  if (!failing) return std::nullopt;
  // A test may pass the line several times: each test counts once.
  std::set<std::string> tests_against;
  for (const PassingFacts* run : passing) {
    auto value = run->locals.find(atom.root);
    if (atom.root.empty() || value == run->locals.end()) continue;
    const std::optional<bool> held = atom.holds(value->second);
    if (!held) continue;
    if (*held == *failing) return std::nullopt;  // a passing run had it too
    tests_against.insert(run->test);
  }
  const int against = static_cast<int>(tests_against.size());
  // With no passing run against it, a condition is a guess: kept only where the exception was
  // raised (the innermost frame in the repo, which read the bad value), for a value that
  // breaks code by itself, of a kind that explains the exception.
  if (against == 0 &&
      !(raising && atom.telling && *failing && ExplainsException(atom.explains, exception))) {
    return std::nullopt;
  }
  GuardCondition out;
  out.condition = *failing ? atom.when_true : atom.when_false;
  out.negation = *failing ? atom.when_false : atom.when_true;
  out.subject = atom.subject;
  out.passing_against = against;
  out.evidence = absl::StrFormat("`%s` %s at %s:%d in the failing run", atom.subject,
                                 *failing ? atom.said_true : atom.said_false, site.file, site.line);
  if (against > 0) {
    absl::StrAppendFormat(&out.evidence, " and %s in %d passing test%s",
                          *failing ? atom.said_false : atom.said_true, against,
                          against == 1 ? "" : "s");
  }
  // Contrast with passing runs is the strongest evidence; three runs are plenty.
  const double contrast = 0.4 + 0.6 * std::min(against, 3) / 3.0;
  const double read = Reads(site.statement, atom.subject) ? 1.0
                      : Reads(site.statement, atom.root)  ? 0.8
                                                          : 0.4;
  // The value that breaks code by itself (None, empty) was in the passing runs, not the failing
  // one: that they passed with it says little about why this run failed.
  const double orientation = atom.telling && !*failing ? 0.5 : 1.0;
  out.score = atom.weight * contrast * read * orientation;
  return out;
}

}  // namespace

size_t FindExpression(std::string_view code, std::string_view expression) {
  if (expression.empty()) return std::string_view::npos;
  for (size_t at = code.find(expression); at != std::string_view::npos;
       at = code.find(expression, at + 1)) {
    const size_t end = at + expression.size();
    const bool starts = at == 0 || (!IsWordChar(code[at - 1]) && code[at - 1] != '.');
    const bool ends = end == code.size() || !IsWordChar(code[end]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

std::vector<GuardCondition> SynthesizeGuards(const RuntimeFacts& facts, const GuardSite& site,
                                             size_t limit) {
  const FrameFacts* frame = FindFrame(facts, site.file, site.line);
  if (frame == nullptr) return {};
  const std::vector<const PassingFacts*> passing = PassingAt(facts, site);
  const bool raising = frame == &facts.frames.back();
  std::vector<GuardCondition> found;
  auto judge = [&](const GuardAtom& atom, std::optional<bool> failing) {
    if (std::optional<GuardCondition> c =
            Judge(atom, failing, passing, facts.exception, raising, site)) {
      found.push_back(*std::move(c));
    }
  };
  for (const auto& [name, value] : frame->locals) {
    if (Skipped(name, value)) continue;
    std::vector<const ValueFacts*> same;
    for (const PassingFacts* run : passing) {
      if (auto it = run->locals.find(name); it != run->locals.end()) same.push_back(&it->second);
    }
    for (const GuardAtom& atom : LocalAtoms({name, value, same, facts, site})) {
      judge(atom, atom.holds(value));
    }
  }
  for (const GuardAtom& atom : ProcessAtoms(facts, site)) judge(atom, atom.process);
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.score != b.score ? a.score > b.score : a.condition < b.condition;
  });
  std::set<std::string> seen;
  std::erase_if(found, [&](const GuardCondition& c) { return !seen.insert(c.condition).second; });
  if (found.size() > limit) found.resize(limit);
  return found;
}

}  // namespace smallfix
