// `runtime-none`: the expressions the site reads that were None in the failing run, so that a
// guard tests the value that was None, not a guess from the message (`'NoneType' object is not
// subscriptable` does not say which operand).
#include <algorithm>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/facts/guard_synthesis.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {
namespace {

constexpr size_t kMaxAnswers = 3;

// A local that was None and each attribute of a local that was None: `x`, `p.grad`.
std::vector<std::string> NoneExpressions(const FrameFacts& frame) {
  std::vector<std::string> out;
  for (const auto& [name, value] : frame.locals) {
    if (value.none) out.push_back(name);
    for (const std::string& attr : value.attrs_none) out.push_back(Concat(name, ".", attr));
  }
  return out;
}

}  // namespace

absl::Status RuntimeNone(const LookupArgs& args, const MatchContext& context, MatchState& state,
                         std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(const FrameFacts* frame, FailingFrame(context, state));
  std::string code = state.bindings["statement"];
  if (!LookupArg(args, "within").empty()) {
    SMALLFIX_ASSIGN_OR_RETURN(TSNode within, CaptureNode(args, "within", state));
    code = std::string(state.document->NodeText(within));
  }
  // In the order the code reads them: the first None it touches is the one that raised.
  std::vector<std::pair<size_t, std::string>> read;
  for (std::string& expression : NoneExpressions(*frame)) {
    const size_t at = FindExpression(code, expression);
    if (at != std::string_view::npos) read.emplace_back(at, std::move(expression));
  }
  std::sort(read.begin(), read.end());
  std::vector<std::pair<std::string, std::string>> answers;
  for (size_t i = 0; i < read.size() && i < kMaxAnswers; ++i) {
    answers.emplace_back(read[i].second,
                         Concat("`", read[i].second, "` was None at ", frame->file, ":",
                                std::to_string(frame->line), " in the failing run"));
  }
  return BindEachWithFact("none_value", answers, state, more,
                          "nothing the site reads was None in the failing run");
}

}  // namespace smallfix
