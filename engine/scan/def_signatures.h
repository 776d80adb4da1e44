#ifndef SMALLFIX_ENGINE_SCAN_DEF_SIGNATURES_H_
#define SMALLFIX_ENGINE_SCAN_DEF_SIGNATURES_H_

#include <string>
#include <string_view>

namespace smallfix {

// The parameter lists of every `def` in Python source, "(...)" each on its own line, for a
// scan filter that only cares about signatures (a mutable default): a keyword argument in a
// call looks the same to a regex, and calls are everywhere. A small lexer, much cheaper
// than parsing: it skips strings (all prefixes, triple quotes, escapes) and comments, and
// follows bracket depth. Where it cannot tell (a string or a list that never ends) it gives
// back the whole text, so a filter over its result never skips a file the query could match.
std::string DefSignatures(std::string_view text);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SCAN_DEF_SIGNATURES_H_
