#include "engine/source/indentation.h"

#include <algorithm>
#include <vector>

#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// The first block (pre-order) whose first statement starts its own line.
std::optional<TSNode> FirstIndentedBlock(const Document& document) {
  std::optional<TSNode> found;
  WalkTree(document.root(), [&](TSNode node) {
    if (IsType(node, "block") && ts_node_named_child_count(node) > 0) {
      TSNode first = ts_node_named_child(node, 0);
      if (StartsItsLine(document, first) &&
          document.NodeStart(first).line > document.NodeStart(ts_node_parent(node)).line) {
        found = node;
        return Walk::kStop;
      }
    }
    return Walk::kDescend;
  });
  return found;
}

}  // namespace

std::string IndentUnit(const Document& document) {
  std::optional<TSNode> block = FirstIndentedBlock(document);
  if (!block) return "    ";
  const TSNode first = ts_node_named_child(*block, 0);
  const std::string_view inner = LeadingWhitespace(document, document.NodeStart(first).line);
  const std::string_view outer =
      LeadingWhitespace(document, document.NodeStart(ts_node_parent(*block)).line);
  if (inner.size() > outer.size() && inner.starts_with(outer)) {
    return std::string(inner.substr(outer.size()));
  }
  return inner.find('\t') != std::string_view::npos ? "\t" : "    ";
}

std::string Reindent(std::string_view code, std::string_view base, std::string_view unit,
                     std::string_view newline) {
  std::vector<std::string_view> lines;
  for (size_t start = 0;;) {
    const size_t end = code.find('\n', start);
    lines.push_back(code.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string_view::npos) {
    lines.pop_back();
  }
  // Width of a line's indentation in template columns: a tab is one level (4 columns).
  auto width = [](std::string_view line) {
    size_t columns = 0, i = 0;
    for (; i < line.size() && (line[i] == ' ' || line[i] == '\t'); ++i) {
      columns += line[i] == '\t' ? 4 : 1;
    }
    return std::make_pair(columns, i);
  };
  size_t common = SIZE_MAX;
  for (std::string_view line : lines) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    common = std::min(common, width(line).first);
  }
  std::string out;
  for (std::string_view line : lines) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      out.append(newline);
      continue;
    }
    auto [columns, skip] = width(line);
    const size_t relative = columns - common;
    out.append(base);
    for (size_t level = 0; level < relative / 4; ++level) out.append(unit);
    out.append(relative % 4, ' ');
    out.append(line.substr(skip));
    out.append(newline);
  }
  return out;
}

}  // namespace smallfix
