#ifndef SMALLFIX_ENGINE_DOCTOR_CHECK_H_
#define SMALLFIX_ENGINE_DOCTOR_CHECK_H_

#include <string>
#include <vector>

namespace smallfix::doctor {

// One thing a repair needs on this machine, and how it stands.
struct Check {
  enum class State {
    kOk,
    kMissing,  // a repair as configured cannot run without it
    kWarn,     // only some repairs need it (coverage for --coverage), or it could not be told
    kSkipped,  // not needed as configured (no Slurm runner, no --llm)
  };
  std::string name;  // "git", "python", "torch", ...
  State state = State::kOk;
  std::string detail;  // what was found, or what is wrong
  std::string fix;     // how to get it; empty when there is nothing to do
};

inline Check Ok(std::string name, std::string detail) {
  return {std::move(name), Check::State::kOk, std::move(detail), ""};
}
inline Check Missing(std::string name, std::string detail, std::string fix) {
  return {std::move(name), Check::State::kMissing, std::move(detail), std::move(fix)};
}
inline Check Warn(std::string name, std::string detail, std::string fix) {
  return {std::move(name), Check::State::kWarn, std::move(detail), std::move(fix)};
}
inline Check Skipped(std::string name, std::string why) {
  return {std::move(name), Check::State::kSkipped, std::move(why), ""};
}

}  // namespace smallfix::doctor

#endif  // SMALLFIX_ENGINE_DOCTOR_CHECK_H_
