#ifndef SMALLFIX_ENGINE_SOURCE_SYNTAX_H_
#define SMALLFIX_ENGINE_SOURCE_SYNTAX_H_

#include <tree_sitter/api.h>

#include <optional>
#include <string_view>
#include <vector>

#include "engine/source/document.h"

namespace smallfix {

// Small questions about Python syntax trees that every edit helper asks.

bool IsType(TSNode node, std::string_view type);
bool IsComment(TSNode node);

// A statement is a node whose parent is the module or a block; comments are not.
bool IsStatement(TSNode node);

// The innermost statement containing `byte`, or nullopt (e.g. in a blank line at the end).
std::optional<TSNode> StatementAt(const Document& document, size_t byte);
// The innermost statement that starts on `line` (0-based) or spans it.
std::optional<TSNode> StatementAtLine(const Document& document, int line);

// Whether `node` or a node inside it is a call or an `await`: code that may do anything.
bool HasCall(TSNode node);

// The nearest ancestor (or the node itself) of one of `types`.
std::optional<TSNode> EnclosingOfType(TSNode node, std::initializer_list<std::string_view> types);

// The class whose body holds `function` directly (decorated or not), or a null node.
TSNode ClassOfMethod(TSNode function);

// Named children that are not comments, e.g. the arguments of an argument_list.
std::vector<TSNode> NamedChildrenSkippingComments(TSNode node);

// Pre-order walk of `root` and its descendants with a cursor. `visit(node)` returns what to
// do next: kDescend into the node's children, kSkip them, or kStop the walk. A null root (a
// field the node lacks) is an empty walk.
enum class Walk { kDescend, kSkip, kStop };
template <typename Visit>
void WalkTree(TSNode root, Visit&& visit) {
  if (ts_node_is_null(root)) return;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    const Walk next = visit(ts_tree_cursor_current_node(&cursor));
    if (next == Walk::kStop) break;
    if (next == Walk::kDescend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool more = true;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
    if (!more) break;
  }
  ts_tree_cursor_delete(&cursor);
}

// The whitespace before the first token of `line`.
std::string_view LeadingWhitespace(const Document& document, int line);
// True when only whitespace precedes `node` on its line.
bool StartsItsLine(const Document& document, TSNode node);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_SYNTAX_H_
