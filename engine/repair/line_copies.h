#ifndef SMALLFIX_ENGINE_REPAIR_LINE_COPIES_H_
#define SMALLFIX_ENGINE_REPAIR_LINE_COPIES_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/index/repo_index.h"
#include "engine/repair/multi_site_candidates.h"
#include "engine/source/document.h"

namespace smallfix {

// Copies of line `line` (1-based) of `document` in other files, for WithSameEditAtCopies: the
// line, exactly as written (indentation included), inside a def of the same name in another file
// the index knows, a method of a class of the same name where the line's def is a method. Code
// copied between two packages keeps both names (`lightning.fabric` and `lightning.pytorch` each
// define `FSDPPrecision.module_init_context`); a line that merely repeats elsewhere does not
// have them. `load` reads a repo-relative file; a file it cannot read is left out.
std::vector<LineCopies> CopiesInOtherFiles(
    const RepoIndex& index, const std::function<absl::StatusOr<Document>(const std::string&)>& load,
    const Document& document, int line);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_LINE_COPIES_H_
