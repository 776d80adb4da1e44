#include "engine/source/comma_list.h"

#include <string>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// The comma token that directly follows `item` (comments may sit between), if any.
std::optional<TSNode> CommaAfter(TSNode item) {
  for (TSNode next = ts_node_next_sibling(item); !ts_node_is_null(next);
       next = ts_node_next_sibling(next)) {
    if (IsComment(next)) continue;
    if (IsType(next, ",")) return next;
    return std::nullopt;
  }
  return std::nullopt;
}

// A comment on the same line right after `node`, if any.
std::optional<TSNode> CommentAfterOnLine(const Document& document, TSNode node) {
  TSNode next = ts_node_next_sibling(node);
  if (IsComment(next) &&
      document.NodeStart(next).line == document.lines().ToPosition(ts_node_end_byte(node)).line) {
    return next;
  }
  return std::nullopt;
}

int Line(const Document& document, size_t byte) { return document.lines().ToPosition(byte).line; }

// The indentation for a new item laid out like `item`: its line's leading whitespace when
// it starts the line, else as many spaces as its column.
std::string ItemIndent(const Document& document, TSNode item) {
  const Position start = document.NodeStart(item);
  if (StartsItsLine(document, item)) return std::string(LeadingWhitespace(document, start.line));
  return std::string(start.column, ' ');
}

}  // namespace

std::vector<TSNode> ListItems(TSNode list) { return NamedChildrenSkippingComments(list); }

absl::StatusOr<Edit> InsertListItem(const Document& document, TSNode list,
                                    std::optional<TSNode> before, std::string_view item) {
  const std::vector<TSNode> items = ListItems(list);
  const TSNode open = ts_node_child(list, 0);
  if (!IsType(open, "(")) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: a `%s` is not a parenthesised list", document.path(),
                        document.NodeStart(list).line + 1, ts_node_type(list)));
  }
  const std::string_view newline = document.newline();
  if (before) {
    const size_t at = ts_node_start_byte(*before);
    if (StartsItsLine(document, *before) && Line(document, at) > document.NodeStart(open).line) {
      return Edit{at, at, Concat(item, ",", newline, ItemIndent(document, *before))};
    }
    return Edit{at, at, Concat(item, ", ")};
  }
  if (items.empty()) {
    const size_t at = ts_node_end_byte(open);
    return Edit{at, at, std::string(item)};
  }
  const TSNode last = items.back();
  const std::optional<TSNode> comma = CommaAfter(last);
  const TSNode close = ts_node_child(list, ts_node_child_count(list) - 1);
  const int last_line = Line(document, ts_node_end_byte(last));
  const bool one_per_line = StartsItsLine(document, last) &&
                            document.NodeStart(close).line > last_line &&
                            document.NodeStart(last).line > document.NodeStart(open).line;
  if (one_per_line) {
    const std::string indent = ItemIndent(document, last);
    if (comma) {
      // After the trailing comma and any comment on its line.
      const size_t at = document.lines().LineEnd(Line(document, ts_node_end_byte(*comma)));
      return Edit{at, at, Concat(newline, indent, item, ",")};
    }
    // No trailing comma: add one after `last`; a comment on its line stays with it.
    const size_t at = ts_node_end_byte(last);
    if (std::optional<TSNode> comment = CommentAfterOnLine(document, last)) {
      const size_t end = ts_node_end_byte(*comment);
      return Edit{at, end,
                  Concat(",", document.text().substr(at, end - at), newline, indent, item)};
    }
    return Edit{at, at, Concat(",", newline, indent, item)};
  }
  if (comma) {
    const size_t at = ts_node_end_byte(*comma);
    return Edit{at, at, Concat(" ", item, ",")};
  }
  const size_t at = ts_node_end_byte(last);
  return Edit{at, at, Concat(", ", item)};
}

absl::StatusOr<Edit> RemoveListItem(const Document& document, TSNode list, TSNode item) {
  const std::vector<TSNode> items = ListItems(list);
  size_t index = 0;
  while (index < items.size() && !ts_node_eq(items[index], item)) ++index;
  if (index == items.size()) {
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d: the node is not an item of the list",
                                                      document.path(),
                                                      document.NodeStart(item).line + 1));
  }
  const std::optional<TSNode> comma = CommaAfter(item);
  const size_t item_end = comma ? ts_node_end_byte(*comma) : ts_node_end_byte(item);
  const LineIndex& lines = document.lines();
  const int first_line = document.NodeStart(item).line;
  const int end_line = Line(document, item_end);
  const TSNode open = ts_node_child(list, 0);
  const TSNode close = ts_node_child(list, ts_node_child_count(list) - 1);

  // Alone on its lines: nothing but whitespace and a comment around it.
  const std::string_view rest_of_line =
      document.text().substr(item_end, lines.LineEnd(end_line) - item_end);
  const size_t rest = rest_of_line.find_first_not_of(" \t");
  const bool alone = StartsItsLine(document, item) && first_line > document.NodeStart(open).line &&
                     end_line < document.NodeStart(close).line &&
                     (rest == std::string_view::npos || rest_of_line[rest] == '#');
  if (alone) {
    return Edit{lines.LineStart(first_line), lines.LineEndWithNewline(end_line), ""};
  }
  if (index + 1 < items.size()) {
    return Edit{ts_node_start_byte(item), ts_node_start_byte(items[index + 1]), ""};
  }
  if (index > 0) {
    // The last item: drop it with the comma before it, keep a trailing comma if any.
    return Edit{ts_node_end_byte(items[index - 1]), ts_node_end_byte(item), ""};
  }
  return Edit{ts_node_start_byte(item), item_end, ""};
}

}  // namespace smallfix
