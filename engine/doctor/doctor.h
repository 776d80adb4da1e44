#ifndef SMALLFIX_ENGINE_DOCTOR_DOCTOR_H_
#define SMALLFIX_ENGINE_DOCTOR_DOCTOR_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/doctor/check.h"

namespace smallfix::doctor {

// What `smallfix doctor` was told; each empty or zero field is taken from the repo's
// .smallfix.yaml as `repair` takes it, else the same default.
struct DoctorOptions {
  std::string repo = ".";
  std::string python;  // --python
  std::string runner;  // --runner
  int world_size = 0;  // --world-size
  std::string llm_url, llm_model;
  double llm_timeout_seconds = 10;
};

// Every check a repair with these settings depends on, in the order a repair meets them.
// An error only for bad input (a --repo that is not a directory, a broken .smallfix.yaml).
absl::StatusOr<std::vector<Check>> RunChecks(const DoctorOptions& options);

}  // namespace smallfix::doctor

#endif  // SMALLFIX_ENGINE_DOCTOR_DOCTOR_H_
