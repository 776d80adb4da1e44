#include "engine/patterns/lookups/helpers.h"

#include "engine/base/concat.h"
#include "engine/source/syntax.h"

namespace smallfix {

std::string LookupArg(const LookupArgs& args, const char* key) {
  auto it = args.find(key);
  return it == args.end() ? "" : it->second;
}

absl::Status LookupFails(std::string_view why) { return absl::NotFoundError(std::string(why)); }

absl::Status BindEach(const std::string& key, const std::vector<std::string>& values,
                      MatchState& state, std::vector<MatchState>& more, std::string_view why) {
  if (values.empty()) return LookupFails(why);
  for (size_t i = 1; i < values.size(); ++i) {
    more.push_back(state);
    more.back().bindings[key] = values[i];
  }
  state.bindings[key] = values.front();
  return absl::OkStatus();
}

absl::StatusOr<TSNode> CaptureNode(const LookupArgs& args, const char* key,
                                   const MatchState& state) {
  const std::string capture = LookupArg(args, key);
  auto it = state.nodes.find(capture);
  if (it == state.nodes.end())
    return LookupFails(Concat("no capture @", capture, " in this match"));
  return it->second;
}

absl::StatusOr<TSNode> CallNode(const LookupArgs& args, const MatchState& state) {
  absl::StatusOr<TSNode> node = CaptureNode(args, "call", state);
  if (!node.ok() || !IsType(*node, "call")) {
    return LookupFails(Concat("capture @", LookupArg(args, "call"), " is not a call"));
  }
  return node;
}

absl::Status BindEachPair(const std::pair<std::string, std::string>& keys,
                          const std::vector<std::pair<std::string, std::string>>& answers,
                          MatchState& state, std::vector<MatchState>& more, std::string_view why) {
  if (answers.empty()) return LookupFails(why);
  for (size_t i = 0; i < answers.size(); ++i) {
    MatchState& target = i == 0 ? state : more.emplace_back(state);
    target.bindings[keys.first] = answers[i].first;
    target.bindings[keys.second] = answers[i].second;
  }
  return absl::OkStatus();
}

}  // namespace smallfix
