#ifndef SMALLFIX_ENGINE_PATTERNS_LOOKUPS_HELPERS_H_
#define SMALLFIX_ENGINE_PATTERNS_LOOKUPS_HELPERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/patterns/lookups/lookup.h"

// What the look-ups share: their arguments, their captures, their ways of failing and of
// binding several answers.
namespace smallfix {

// An argument's value, "" when not given.
std::string LookupArg(const LookupArgs& args, const char* key);
// The node of the capture that the argument `key` names; fails when the match has no such capture.
absl::StatusOr<TSNode> CaptureNode(const LookupArgs& args, const char* key,
                                   const MatchState& state);
// The node of the capture named by the `call` argument; fails unless it is a call.
absl::StatusOr<TSNode> CallNode(const LookupArgs& args, const MatchState& state);
// The look-up does not hold: NotFound with the reason, and the match is dropped.
absl::Status LookupFails(std::string_view why);

// How close `candidate` is to `name` as a replacement name, lower is closer; nullopt when
// too far apart to be a slip (a typo, a sibling such as tp_rank / tp_size, get / get_all).
std::optional<size_t> NameCloseness(std::string_view name, std::string_view candidate);

// Binds `key` to each of `values` in turn: the first in `state`, copies for the others in
// `more`. Fails with `why` when `values` is empty.
absl::Status BindEach(const std::string& key, const std::vector<std::string>& values,
                      MatchState& state, std::vector<MatchState>& more, std::string_view why);
// The same for answers of two placeholders each (`keys.first` <- answer.first, ...).
absl::Status BindEachPair(const std::pair<std::string, std::string>& keys,
                          const std::vector<std::pair<std::string, std::string>>& answers,
                          MatchState& state, std::vector<MatchState>& more, std::string_view why);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_LOOKUPS_HELPERS_H_
