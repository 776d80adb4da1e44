#include "engine/source/statement_edits.h"

#include <set>
#include <string>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/source/indentation.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

absl::Status CheckOwnLine(const Document& document, TSNode statement) {
  if (!IsStatement(statement)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: a `%s` node is not a statement", document.path(),
                        document.NodeStart(statement).line + 1, ts_node_type(statement)));
  }
  if (!StartsItsLine(document, statement)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s:%d: the statement shares its line with other code; cannot insert a line before it",
        document.path(), document.NodeStart(statement).line + 1));
  }
  return absl::OkStatus();
}

int EndLine(const Document& document, TSNode node) {
  // A node ending right after a newline (some blocks do) ends on the previous line.
  size_t end = ts_node_end_byte(node);
  if (end > ts_node_start_byte(node) && document.text()[end - 1] == '\n') --end;
  return document.lines().ToPosition(end).line;
}

// Lines after the first line of a multi-line string start inside it: re-indenting them
// would change the string's value.
void CollectStringLines(const Document& document, TSNode node, std::set<int>& lines) {
  if (IsType(node, "string") || IsType(node, "concatenated_string")) {
    const int first = document.NodeStart(node).line;
    const int last = document.lines().ToPosition(ts_node_end_byte(node)).line;
    for (int line = first + 1; line <= last; ++line) lines.insert(line);
    return;
  }
  const uint32_t count = ts_node_child_count(node);
  for (uint32_t i = 0; i < count; ++i) CollectStringLines(document, ts_node_child(node, i), lines);
}

}  // namespace

absl::StatusOr<Edit> InsertBefore(const Document& document, TSNode statement,
                                  std::string_view code) {
  SMALLFIX_RETURN_IF_ERROR(CheckOwnLine(document, statement));
  const int line = document.NodeStart(statement).line;
  const size_t at = document.lines().LineStart(line);
  return Edit{
      at, at,
      Reindent(code, LeadingWhitespace(document, line), IndentUnit(document), document.newline())};
}

absl::StatusOr<Edit> InsertAfter(const Document& document, TSNode statement,
                                 std::string_view code) {
  SMALLFIX_RETURN_IF_ERROR(CheckOwnLine(document, statement));
  const int line = document.NodeStart(statement).line;
  const int last = EndLine(document, statement);
  const size_t at = document.lines().LineEndWithNewline(last);
  std::string text =
      Reindent(code, LeadingWhitespace(document, line), IndentUnit(document), document.newline());
  if (at == document.text().size() && !document.text().ends_with('\n')) {
    text = Concat(document.newline(), text);  // the statement ends the file
  }
  return Edit{at, at, std::move(text)};
}

absl::StatusOr<Edit> WrapInBlock(const Document& document, TSNode first, TSNode last,
                                 std::string_view header, std::string_view trailer) {
  SMALLFIX_RETURN_IF_ERROR(CheckOwnLine(document, first));
  if (!ts_node_eq(ts_node_parent(first), ts_node_parent(last)) ||
      ts_node_start_byte(last) < ts_node_start_byte(first)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: statements to wrap must be siblings in order", document.path(),
                        document.NodeStart(first).line + 1));
  }
  const LineIndex& lines = document.lines();
  const int first_line = document.NodeStart(first).line;
  const int last_line = EndLine(document, last);
  if (document.lines().LineEnd(last_line) > ts_node_end_byte(last)) {
    // Code after `last` on its line (`a; b`) would be dragged into the block.
    std::optional<TSNode> next = StatementAt(document, ts_node_end_byte(last) + 1);
    if (next && !ts_node_eq(*next, last) && document.NodeStart(*next).line == last_line) {
      return absl::FailedPreconditionError(
          absl::StrFormat("%s:%d: the statement shares its line with the next one", document.path(),
                          last_line + 1));
    }
  }
  const std::string base(LeadingWhitespace(document, first_line));
  const std::string unit = IndentUnit(document);
  const std::string_view newline = document.newline();

  std::set<int> string_lines;
  for (TSNode node = first;; node = ts_node_next_named_sibling(node)) {
    CollectStringLines(document, node, string_lines);
    if (ts_node_eq(node, last) || ts_node_is_null(node)) break;
  }

  std::string text = Reindent(header, base, unit, newline);
  for (int line = first_line; line <= last_line; ++line) {
    const std::string_view content = lines.Line(line);
    const std::string_view terminator = document.text().substr(
        lines.LineEnd(line), lines.LineEndWithNewline(line) - lines.LineEnd(line));
    if (!string_lines.contains(line) &&
        content.find_first_not_of(" \t\f") != std::string_view::npos) {
      // One level deeper: the unit goes after the block's own indentation.
      const size_t keep = std::min(base.size(), content.find_first_not_of(" \t\f"));
      text.append(content.substr(0, keep));
      text.append(unit);
      text.append(content.substr(keep));
    } else {
      text.append(content);
    }
    text.append(terminator.empty() ? newline : terminator);
  }
  if (!trailer.empty()) text.append(Reindent(trailer, base, unit, newline));
  return Edit{lines.LineStart(first_line), lines.LineEndWithNewline(last_line), std::move(text)};
}

absl::StatusOr<Edit> WrapInIf(const Document& document, TSNode first, TSNode last,
                              std::string_view condition) {
  return WrapInBlock(document, first, last, Concat("if ", condition, ":"));
}

absl::StatusOr<Edit> WrapInTry(const Document& document, TSNode first, TSNode last,
                               std::string_view exception, std::string_view handler) {
  const std::string trailer =
      Concat("except ", exception, ":\n", Reindent(handler, "    ", "    ", "\n"));
  return WrapInBlock(document, first, last, "try:", trailer);
}

}  // namespace smallfix
