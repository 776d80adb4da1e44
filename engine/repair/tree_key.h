#ifndef SMALLFIX_ENGINE_REPAIR_TREE_KEY_H_
#define SMALLFIX_ENGINE_REPAIR_TREE_KEY_H_

#include <string>

namespace smallfix {

// The syntax tree of a Python file as one string: its S-expression plus every leaf's token
// text but comments' words. Two texts have the same key when they differ only in layout
// (spacing, blank lines, line breaks inside brackets) or in what a comment says, not where
// comments are; a text that does not parse is its own key. `path` names the file for the parser.
std::string TreeKey(const std::string& path, const std::string& text);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_TREE_KEY_H_
