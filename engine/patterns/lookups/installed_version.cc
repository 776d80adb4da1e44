// `installed-version`: the release of a package the failing run had installed, as a version gate
// writes it ("2.13" for torch 2.13.0+cpu): code that needs what this release has is gated on it.
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/lookups/failing_run.h"
#include "engine/patterns/lookups/helpers.h"

namespace smallfix {
namespace {

// "2.13.0+cpu" -> "2.13"; "" when the version does not start with major.minor.
std::string MajorMinor(std::string_view version) {
  size_t end = 0;
  int dots = 0;
  while (end < version.size() && (std::isdigit(static_cast<unsigned char>(version[end])) ||
                                  (version[end] == '.' && dots++ < 1))) {
    ++end;
  }
  const std::string_view cut = version.substr(0, end);
  if (dots == 0 || cut.ends_with('.')) return "";
  return std::string(cut);
}

}  // namespace

absl::Status InstalledVersion(const LookupArgs& args, const MatchContext& context,
                              MatchState& state, std::vector<MatchState>&) {
  SMALLFIX_ASSIGN_OR_RETURN(const RuntimeFacts* facts, FailingRun(context));
  const std::string module = LookupArg(args, "package");
  const std::string package = module.substr(0, module.find('.'));
  auto it = facts->versions.find(package);
  if (it == facts->versions.end()) {
    return LookupFails(Concat("the failing run recorded no version of ", package));
  }
  const std::string release = MajorMinor(it->second);
  if (release.empty()) {
    return LookupFails(Concat("the version of ", package, " is not major.minor: ", it->second));
  }
  state.bindings["installed_version"] = release;
  state.bindings["fact"] =
      WithFact(state, Concat("the failing run had ", package, " ", it->second, " installed"));
  return absl::OkStatus();
}

}  // namespace smallfix
