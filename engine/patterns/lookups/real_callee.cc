// `real-callee`: the function a call reaches as the failing run saw it (the capture's `callee`,
// from inspect.signature), so that the look-ups that read the callee (missing-argument,
// nearest-parameter, callee-lacks-parameter) work where the index has no def: a function of an
// installed package or a C extension, a method of an object the index cannot type.
#include <memory>

#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/index/symbols.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {
namespace {

struct KindName {
  const char* inspect;  // inspect.Parameter's kind, as the capture writes it
  Parameter::Kind kind;
};
constexpr KindName kKinds[] = {
    {"POSITIONAL_ONLY", Parameter::Kind::kPositionalOnly},
    {"POSITIONAL_OR_KEYWORD", Parameter::Kind::kPositionalOrKeyword},
    {"VAR_POSITIONAL", Parameter::Kind::kVarPositional},
    {"KEYWORD_ONLY", Parameter::Kind::kKeywordOnly},
    {"VAR_KEYWORD", Parameter::Kind::kVarKeyword},
};

std::string_view LastName(std::string_view dotted) {
  const size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

std::string WithoutSpaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

// Whether the recorded callee is the one the call names: the expression the run called, else
// (a capture that did not record it) the call's last name is the qualname's (`opt.step` and
// `SGD.step`), or its class's for a constructor (`AdamW.__init__`).
bool SameCallee(const CalleeFacts& callee, std::string_view function) {
  if (!callee.expression.empty()) {
    return WithoutSpaces(callee.expression) == WithoutSpaces(function);
  }
  const std::string_view qualname = callee.qualname;
  const std::string_view name = LastName(function);
  if (LastName(qualname) == name) return true;
  if (LastName(qualname) != "__init__") return false;
  return LastName(qualname.substr(0, qualname.rfind('.'))) == name;
}

std::shared_ptr<FunctionInfo> InfoOf(const CalleeFacts& callee) {
  auto info = std::make_shared<FunctionInfo>();
  info->name = std::string(LastName(callee.qualname));
  info->qualname = callee.qualname;
  for (const ParameterFacts& param : callee.parameters) {
    ParamInfo out{param.name, Parameter::Kind::kPositionalOrKeyword, param.has_default,
                  param.default_repr.value_or("")};
    for (const KindName& kind : kKinds) {
      if (param.kind == kind.inspect) out.kind = kind.kind;
    }
    info->params.push_back(std::move(out));
  }
  return info;
}

}  // namespace

absl::Status RealCallee(const LookupArgs& args, const MatchContext& context, MatchState& state,
                        std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(const RuntimeFacts* facts, FailingRun(context));
  if (!facts->callee) return LookupFails("the failing run recorded no callee");
  // The capture describes the callee of a call on the raising frame's line only.
  SMALLFIX_ASSIGN_OR_RETURN(const FrameFacts* frame, FailingFrame(context, state));
  if (frame != &facts->frames.back()) return LookupFails("the site is not the raising frame");
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, CallNode(args, state));
  const std::string_view function =
      state.document->NodeText(ts_node_child_by_field_name(call, "function", 8));
  const CalleeFacts& callee = *facts->callee;
  if (!SameCallee(callee, function)) {
    const std::string& called = callee.expression.empty() ? callee.qualname : callee.expression;
    return LookupFails(Concat("the failing run called `", called, "`, not `", function, "`"));
  }
  state.real_callee = InfoOf(callee);
  state.callee = state.real_callee.get();
  std::string params;
  for (const ParamInfo& param : state.callee->params) {
    params += (params.empty() ? "" : ", ") + param.name;
  }
  state.bindings["callee"] = callee.qualname;
  state.bindings["callee_file"] = "";
  state.bindings["callee_params"] = params;
  state.bindings["fact"] = WithFact(
      state, Concat("the failing run's `", callee.qualname, "` takes `",
                    callee.signature.empty() ? Concat("(", params, ")") : callee.signature, "`"));
  return absl::OkStatus();
}

}  // namespace smallfix
