#ifndef SMALLFIX_ENGINE_SOURCE_INDENTATION_H_
#define SMALLFIX_ENGINE_SOURCE_INDENTATION_H_

#include <string>
#include <string_view>

#include "engine/source/document.h"

namespace smallfix {

// How a file indents one level: "    ", "  ", "\t", ...
// Read from the first indented block of the file; four spaces when it has none.
std::string IndentUnit(const Document& document);

// Lays out `code` (written by a template at any base indentation, one level being four
// spaces or a tab) at `base` indentation with the file's `unit` per level, joined with
// `newline`. Common leading indentation is removed first; blank lines stay empty. The result
// ends with `newline`.
std::string Reindent(std::string_view code, std::string_view base, std::string_view unit,
                     std::string_view newline);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_INDENTATION_H_
