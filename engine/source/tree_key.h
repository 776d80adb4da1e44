#ifndef SMALLFIX_ENGINE_SOURCE_TREE_KEY_H_
#define SMALLFIX_ENGINE_SOURCE_TREE_KEY_H_

#include <string>

namespace smallfix {

// The syntax tree of a Python file as one string, equal for two texts exactly when Python's
// own `ast` would see the same tree (as near as the parse tree allows): layout (spacing, blank
// lines, line breaks and continuations), comments, redundant parentheses, trailing commas,
// semicolons between statements and the quote style of strings are left out; names, literals,
// operators and keywords are kept. A text that does not parse is its own key. `path` names
// the file for the parser.
std::string TreeKey(const std::string& path, const std::string& text);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_TREE_KEY_H_
