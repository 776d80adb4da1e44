#include "engine/repair/statement_moves.h"

#include <optional>
#include <set>
#include <string>

#include "engine/source/statement_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

bool IsBlankLine(const Document& document, int line) {
  return document.lines().Line(line - 1).find_first_not_of(" \t\r") == std::string_view::npos;
}

// The statement that starts on `line` (1-based) with nothing before it on the line.
std::optional<TSNode> StatementStartingOn(const Document& document, int line) {
  std::optional<TSNode> statement = StatementAtLine(document, line - 1);
  if (!statement || static_cast<int>(ts_node_start_point(*statement).row) + 1 != line ||
      !StartsItsLine(document, *statement)) {
    return std::nullopt;
  }
  return statement;
}

}  // namespace

std::vector<StatementMove> StatementMoves(const Document& document, const std::vector<int>& lines) {
  const std::set<int> sites(lines.begin(), lines.end());
  const std::string_view text = document.text();
  std::vector<StatementMove> out;
  for (int line : sites) {
    std::optional<TSNode> moved = StatementStartingOn(document, line);
    if (!moved) continue;
    const int last = static_cast<int>(ts_node_end_point(*moved).row) + 1;
    // Nothing else may share its last line (`x = 1; y = 2`, or code after a block's end).
    const std::string_view tail = document.lines().Line(last - 1).substr(ts_node_end_point(*moved).column);
    if (tail.find_first_not_of(" \t\r") != std::string_view::npos && tail.find_first_not_of(" \t\r") != tail.find('#')) {
      continue;
    }
    bool all_sites = true;
    for (int l = line; l <= last; ++l) all_sites = all_sites && (sites.count(l) || IsBlankLine(document, l));
    if (!all_sites) continue;
    const size_t from = document.lines().LineStart(line - 1), to = document.lines().LineEndWithNewline(last - 1);
    const std::string code(text.substr(from, to - from));
    for (int target : sites) {
      // Its own lines, or the statement right after it: no move.
      if (target >= line && target <= last + 1) continue;
      std::optional<TSNode> before = StatementStartingOn(document, target);
      if (!before) continue;
      // Before a def or a class would put the statement in the class body or the module: a
      // place real fixes move imports to, not other statements.
      const bool definition = IsType(*before, "function_definition") || IsType(*before, "class_definition") ||
                              IsType(*before, "decorated_definition");
      if (definition && !IsType(*moved, "import_statement") && !IsType(*moved, "import_from_statement")) continue;
      absl::StatusOr<Edit> insertion = InsertBefore(document, *before, code);
      if (!insertion.ok()) continue;
      out.push_back(StatementMove{line, target, {Edit{from, to, ""}, *std::move(insertion)}});
    }
  }
  return out;
}

}  // namespace smallfix
