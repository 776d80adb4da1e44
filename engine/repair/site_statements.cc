#include "engine/repair/site_statements.h"

#include <optional>
#include <set>
#include <string>

#include "engine/source/statement_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Blank or only a comment: realfix's fault lines leave such lines out.
bool IsBlankLine(const Document& document, int line) {
  const std::string_view text = document.lines().Line(line - 1);
  const size_t first = text.find_first_not_of(" \t\r");
  return first == std::string_view::npos || text[first] == '#';
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

// The statement starting on `line` when all its lines are sites and nothing follows it on its
// last line; its whole lines as [from, to) bytes.
std::optional<TSNode> SiteStatement(const Document& document, int line, const std::set<int>& sites, size_t& from,
                                    size_t& to) {
  std::optional<TSNode> statement = StatementStartingOn(document, line);
  if (!statement) return std::nullopt;
  const int last = static_cast<int>(ts_node_end_point(*statement).row) + 1;
  // Nothing else may share its last line (`x = 1; y = 2`, or code after a block's end).
  const std::string_view tail = document.lines().Line(last - 1).substr(ts_node_end_point(*statement).column);
  const size_t code = tail.find_first_not_of(" \t\r");
  if (code != std::string_view::npos && tail[code] != '#') return std::nullopt;
  for (int l = line; l <= last; ++l) {
    if (!sites.count(l) && !IsBlankLine(document, l)) return std::nullopt;
  }
  from = document.lines().LineStart(line - 1);
  to = document.lines().LineEndWithNewline(last - 1);
  return statement;
}

// For a blank or comment site line, where realfix puts the fault line of a fix that only
// inserts at the end of a block: the statement that ends on the nearest code line above it,
// after which the insertion goes; nullopt when there is none.
std::optional<TSNode> StatementEndingAbove(const Document& document, int line) {
  for (int above = line - 1; above >= 1; --above) {
    if (IsBlankLine(document, above)) continue;
    std::optional<TSNode> statement = StatementAtLine(document, above - 1);
    if (!statement || static_cast<int>(ts_node_end_point(*statement).row) + 1 != above) return std::nullopt;
    return statement;
  }
  return std::nullopt;
}

}  // namespace

std::vector<StatementMove> StatementMoves(const Document& document, const std::vector<int>& lines) {
  const std::set<int> sites(lines.begin(), lines.end());
  const std::string_view text = document.text();
  std::vector<StatementMove> out;
  for (int line : sites) {
    size_t from = 0, to = 0;
    std::optional<TSNode> moved = SiteStatement(document, line, sites, from, to);
    if (!moved) continue;
    const int last = static_cast<int>(ts_node_end_point(*moved).row) + 1;
    const std::string code(text.substr(from, to - from));
    for (int target : sites) {
      // Its own lines, or the statement right after it: no move.
      if (target >= line && target <= last + 1) continue;
      if (IsBlankLine(document, target)) {
        // The end of the block above the blank line, at that block's indentation.
        std::optional<TSNode> after = StatementEndingAbove(document, target);
        if (!after || IsType(*after, "function_definition") || IsType(*after, "class_definition") ||
            IsType(*after, "decorated_definition")) {
          continue;
        }
        absl::StatusOr<Edit> insertion = InsertAfter(document, *after, code);
        // Right after the moved statement itself (or inside it) is where it already is.
        if (!insertion.ok() || (insertion->start >= from && insertion->start <= to)) continue;
        out.push_back(StatementMove{line, target, {Edit{from, to, ""}, *std::move(insertion)}});
        continue;
      }
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

std::vector<Edit> SiteStatementRemovals(const Document& document, const std::vector<int>& lines) {
  const std::set<int> sites(lines.begin(), lines.end());
  std::vector<Edit> out;
  size_t removed_to = 0;  // the end of the last removal: a statement inside it goes with it
  for (int line : sites) {
    size_t from = 0, to = 0;
    if (!SiteStatement(document, line, sites, from, to) || from < removed_to) continue;
    out.push_back(Edit{from, to, ""});
    removed_to = to;
  }
  return out;
}

}  // namespace smallfix
