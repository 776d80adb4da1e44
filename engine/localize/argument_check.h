#ifndef SMALLFIX_ENGINE_LOCALIZE_ARGUMENT_CHECK_H_
#define SMALLFIX_ENGINE_LOCALIZE_ARGUMENT_CHECK_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/localize/localization.h"
#include "engine/localize/repo_search.h"

namespace smallfix {

// True when the message says that a value passed in is of the wrong kind: "Expected `tensor`
// to be of type torch.Tensor", "group must be a ProcessGroup", "invalid argument 'op'",
// "dtype should be of type torch.dtype".
bool IsArgumentCheck(const Symptom& symptom);

// One repo frame of a trace, innermost first.
struct FramePlace {
  std::string file;
  int line = 0;
  bool test = false;
};

// When an argument check is raised by a `raise` of the repo that tests a parameter of its own
// function (a communication wrapper's type check), the value was passed by a caller: the index
// in `frames` of the first repo frame outside the raising file (the wrapper's module). nullopt
// when the raise does not check a parameter, when no repo frame lies outside that file (the
// caller is the user's own code), or when the caller is a test (then the check itself may be
// what is wrong).
std::optional<size_t> ArgumentCheckCaller(const Symptom& symptom,
                                          const std::vector<FramePlace>& frames,
                                          RepoSearch& search);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_ARGUMENT_CHECK_H_
