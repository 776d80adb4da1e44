#include "engine/patterns/lookups/failing_run.h"

#include "absl/strings/numbers.h"
#include "engine/base/concat.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {

absl::StatusOr<const RuntimeFacts*> FailingRun(const MatchContext& context) {
  if (context.runtime == nullptr) return LookupFails("no runtime facts of the failing run");
  return context.runtime;
}

absl::StatusOr<const FrameFacts*> FailingFrame(const MatchContext& context,
                                               const MatchState& state) {
  absl::StatusOr<const RuntimeFacts*> facts = FailingRun(context);
  if (!facts.ok()) return facts.status();
  auto file = state.bindings.find("file"), line = state.bindings.find("line");
  int number = 0;
  if (file == state.bindings.end() || line == state.bindings.end() ||
      !absl::SimpleAtoi(line->second, &number)) {
    return LookupFails("the match has no site");
  }
  const FrameFacts* frame = FindFrame(**facts, file->second, number);
  if (frame == nullptr) {
    return LookupFails(Concat("the failing run has no frame at ", file->second, ":", line->second));
  }
  return frame;
}

std::string WithFact(const MatchState& state, const std::string& sentence) {
  auto it = state.bindings.find("fact");
  if (it == state.bindings.end() || it->second.empty()) return sentence;
  return Concat(it->second, "; ", sentence);
}

absl::Status BindEachWithFact(const std::string& key,
                              const std::vector<std::pair<std::string, std::string>>& answers,
                              MatchState& state, std::vector<MatchState>& more,
                              std::string_view why) {
  std::vector<std::pair<std::string, std::string>> with_facts;
  for (const auto& [value, sentence] : answers) {
    with_facts.emplace_back(value, WithFact(state, sentence));
  }
  return BindEachPair({key, "fact"}, with_facts, state, more, why);
}

}  // namespace smallfix
