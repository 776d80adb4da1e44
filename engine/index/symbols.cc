#include "engine/index/symbols.h"

namespace smallfix {

std::vector<ParamInfo> FunctionInfo::CallableParams() const {
  // A bound method's first parameter is filled by Python, unless the def takes it as *args.
  const bool binds_first = is_method && !is_staticmethod && !params.empty() &&
                           params.front().kind != Parameter::Kind::kVarPositional &&
                           params.front().kind != Parameter::Kind::kVarKeyword;
  return std::vector<ParamInfo>(params.begin() + (binds_first ? 1 : 0), params.end());
}

bool FunctionInfo::IsShadowed() const {
  for (const std::string& decorator : decorators) {
    if (decorator == "overload" || decorator.ends_with(".overload") ||
        decorator.ends_with(".setter") || decorator.ends_with(".deleter")) {
      return true;
    }
  }
  return false;
}

}  // namespace smallfix
