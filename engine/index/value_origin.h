#ifndef SMALLFIX_ENGINE_INDEX_VALUE_ORIGIN_H_
#define SMALLFIX_ENGINE_INDEX_VALUE_ORIGIN_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/index/repo_index.h"
#include "engine/source/document.h"

namespace smallfix {

// A line where a value may have been made: the assignment of a name, or a return (or the
// end a def can run off) of the function whose call gave it.
struct ValueOrigin {
  std::string file;  // repo-relative
  int line = 0;      // 1-based
  int hops = 0;      // 1: in the same function; 2: in the callee that returned it; 3: one further
  std::string why;   // "`opt` is assigned here", "load_state() returns here"
};

// Reads a repo file by repo-relative path (the callee's file).
using DocumentLoader = std::function<absl::StatusOr<Document>(const std::string& file)>;

// Where the value of `name` ("x" or "self.x") read in the statement at `line` (1-based) of
// `document` came from, nearest first: the last assignment of the name before the line in the
// same def (or, for self.x, its assignments in the class's methods); when that assigns the
// result of a call the index resolves, the callee's returns and, if it can run off its end
// (an implicit None), its last statement; when the callee returns a name, that name's last
// assignment there. At most `max_hops` (1..3) steps and a few lines per step. With
// `element_writes`, `name[k] = v` counts as an assignment too: the value is a container and
// what is wrong is an element of it (a tensor that keeps its graph), not the container.
std::vector<ValueOrigin> OriginsOf(const Document& document, int line, std::string_view name,
                                   const RepoIndex* index, const DocumentLoader& load,
                                   int max_hops = 3, bool element_writes = false);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_VALUE_ORIGIN_H_
