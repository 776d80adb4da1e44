#ifndef SMALLFIX_ENGINE_PATTERNS_IMPORT_PLACEMENT_H_
#define SMALLFIX_ENGINE_PATTERNS_IMPORT_PLACEMENT_H_

#include <functional>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace smallfix {

// Says whether a top-level package name belongs to the repo ("first party").
using IsFirstParty = std::function<bool(std::string_view top_package)>;

// The edit that adds one import statement (`import a.b`, `import a as b`, `from m import n`,
// `from m import n as k`, `from .m import n`) to a module where a maintainer running isort
// would put it:
//   - `from m import n` joins an existing top-level `from m import ...` of the same module,
//     at its sorted place when that list is sorted (isort's constants, classes, then the
//     rest; or plain case order), else at its end;
//   - otherwise the statement goes into the block of imports of its section (__future__,
//     standard library, third party, first party, relative), at its sorted place among the
//     plain `import` lines or the `from` lines (both together where the file mixes them),
//     or after the last of them when they are not sorted; a section the file lacks gets its
//     own block after the sections before it.
// NotFound when the module already imports it, or has no top-level import to go by;
// InvalidArgument when `statement` is not one import statement.
absl::StatusOr<Edit> PlaceImport(const Document& document, std::string_view statement,
                                 const IsFirstParty& first_party);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_IMPORT_PLACEMENT_H_
