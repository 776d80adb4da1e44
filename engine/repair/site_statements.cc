#include "engine/repair/site_statements.h"

#include <algorithm>
#include <cctype>
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
std::optional<TSNode> SiteStatement(const Document& document, int line, const std::set<int>& sites,
                                    size_t& from, size_t& to) {
  std::optional<TSNode> statement = StatementStartingOn(document, line);
  if (!statement) return std::nullopt;
  const int last = static_cast<int>(ts_node_end_point(*statement).row) + 1;
  // Nothing else may share its last line (`x = 1; y = 2`, or code after a block's end).
  const std::string_view tail =
      document.lines().Line(last - 1).substr(ts_node_end_point(*statement).column);
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
    if (!statement || static_cast<int>(ts_node_end_point(*statement).row) + 1 != above)
      return std::nullopt;
    return statement;
  }
  return std::nullopt;
}

bool IsChainChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// The names and attribute chains (`x`, `self.config`) that the assignments in `node` starting
// in bytes [lo, hi) bind, as their text; tuple targets give each element.
void CollectAssigned(const Document& document, TSNode node, size_t lo, size_t hi,
                     std::set<std::string>& out) {
  if (ts_node_end_byte(node) <= lo || ts_node_start_byte(node) >= hi) return;
  const bool starts_inside = ts_node_start_byte(node) >= lo;
  if (starts_inside && (IsType(node, "assignment") || IsType(node, "augmented_assignment"))) {
    TSNode left = ts_node_child_by_field_name(node, "left", 4);
    const bool single =
        !ts_node_is_null(left) && (IsType(left, "identifier") || IsType(left, "attribute"));
    if (single) out.insert(std::string(document.NodeText(left)));
    for (uint32_t i = 0; !single && !ts_node_is_null(left) && i < ts_node_named_child_count(left);
         ++i) {
      TSNode element = ts_node_named_child(left, i);
      if (IsType(element, "identifier") || IsType(element, "attribute")) {
        out.insert(std::string(document.NodeText(element)));
      }
    }
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    CollectAssigned(document, ts_node_named_child(node, i), lo, hi, out);
  }
}

// Whether `text` holds `chain` as a whole name or attribute chain (`self.config` in
// `self.config.x`, not in `self.configs` or `other.self.config`).
bool Mentions(std::string_view text, const std::string& chain) {
  for (size_t at = text.find(chain); at != std::string_view::npos; at = text.find(chain, at + 1)) {
    const size_t end = at + chain.size();
    if (at > 0 && IsChainChar(text[at - 1])) continue;
    if (end < text.size() &&
        (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
      continue;
    return true;
  }
  return false;
}

// StatementMove::data_flow for `moved` (bytes [from, to)) inserted at byte `at`.
bool MovesForDataFlow(const Document& document, TSNode moved, size_t from, size_t to, size_t at) {
  const std::string_view text = document.text();
  std::set<std::string> bound;
  if (at <= from) {
    CollectAssigned(document, moved, 0, text.size(), bound);
    const std::string_view between = text.substr(at, from - at);
    return std::any_of(bound.begin(), bound.end(),
                       [&](const std::string& name) { return Mentions(between, name); });
  }
  CollectAssigned(document, ts_tree_root_node(document.tree()), to, at, bound);
  const std::string_view code = document.NodeText(moved);
  return std::any_of(bound.begin(), bound.end(),
                     [&](const std::string& name) { return Mentions(code, name); });
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
        const bool flow = MovesForDataFlow(document, *moved, from, to, insertion->start);
        out.push_back(
            StatementMove{line, target, {Edit{from, to, ""}, *std::move(insertion)}, flow});
        continue;
      }
      std::optional<TSNode> before = StatementStartingOn(document, target);
      if (!before) continue;
      // Before a def or a class would put the statement in the class body or the module: a
      // place real fixes move imports to, not other statements.
      const bool definition = IsType(*before, "function_definition") ||
                              IsType(*before, "class_definition") ||
                              IsType(*before, "decorated_definition");
      if (definition && !IsType(*moved, "import_statement") &&
          !IsType(*moved, "import_from_statement"))
        continue;
      absl::StatusOr<Edit> insertion = InsertBefore(document, *before, code);
      if (!insertion.ok()) continue;
      const bool flow = MovesForDataFlow(document, *moved, from, to, insertion->start);
      out.push_back(StatementMove{line, target, {Edit{from, to, ""}, *std::move(insertion)}, flow});
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
