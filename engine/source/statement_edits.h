#ifndef SMALLFIX_ENGINE_SOURCE_STATEMENT_EDITS_H_
#define SMALLFIX_ENGINE_SOURCE_STATEMENT_EDITS_H_

#include <tree_sitter/api.h>

#include <string_view>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace smallfix {

// Statement-level edits, laid out at the statement's indentation with the file's own
// indent unit (spaces or tabs) and line terminator. `code` is written as a template
// writes it: any base indentation, four spaces (or a tab) per nested level.
//
// Each fails with FailedPrecondition when the statement shares its line with code before
// it (`if x: y`, `a; b`), where a line-based insertion cannot be placed.

// Inserts `code` on its own line(s) just before `statement`.
absl::StatusOr<Edit> InsertBefore(const Document& document, TSNode statement,
                                  std::string_view code);
// Inserts `code` on its own line(s) just after `statement` (after a compound statement's body).
absl::StatusOr<Edit> InsertAfter(const Document& document, TSNode statement, std::string_view code);

// Wraps the sibling statements `first`..`last` in a block:
//   <header>
//       <statements, one level deeper>
//   <trailer, at the statements' level>     (optional: else/except/finally clauses)
// Lines inside multi-line strings keep their bytes; blank lines stay empty.
absl::StatusOr<Edit> WrapInBlock(const Document& document, TSNode first, TSNode last,
                                 std::string_view header, std::string_view trailer = "");

// `if <condition>:` around `first`..`last`.
absl::StatusOr<Edit> WrapInIf(const Document& document, TSNode first, TSNode last,
                              std::string_view condition);
// `try:` around `first`..`last`, then `except <exception>:` with `handler` as its body.
absl::StatusOr<Edit> WrapInTry(const Document& document, TSNode first, TSNode last,
                               std::string_view exception, std::string_view handler);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_STATEMENT_EDITS_H_
