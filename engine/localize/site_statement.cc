#include "engine/localize/site_statement.h"

#include "engine/source/syntax.h"

namespace smallfix {

std::optional<TSNode> FindSiteStatement(const Document& document, const Site& site) {
  if (site.end_byte > site.start_byte && site.end_byte <= document.text().size()) {
    std::optional<TSNode> statement = StatementAt(document, site.start_byte);
    // Walk out to the statement with exactly the recorded range (a compound statement
    // contains smaller ones that start at the same byte only for its first line).
    for (std::optional<TSNode> node = statement; node && !ts_node_is_null(*node);) {
      if (ts_node_start_byte(*node) == site.start_byte &&
          ts_node_end_byte(*node) == site.end_byte) {
        return node;
      }
      TSNode parent = ts_node_parent(*node);
      if (ts_node_is_null(parent)) break;
      node = parent;
    }
  }
  if (site.line < 1) return std::nullopt;
  return StatementAtLine(document, site.line - 1);
}

}  // namespace smallfix
