#include "engine/repair/line_copies.h"

#include <map>
#include <optional>

#include "engine/source/syntax.h"

namespace smallfix {
namespace {

std::string NameOf(const Document& document, TSNode definition) {
  const TSNode name = ts_node_child_by_field_name(definition, "name", 4);
  return ts_node_is_null(name) ? "" : std::string(document.NodeText(name));
}

// The def that starts on `line` (1-based): its `def` keyword's line, not its decorators'.
std::optional<TSNode> DefAtLine(const Document& document, int line) {
  std::optional<TSNode> found;
  WalkTree(document.root(), [&](TSNode node) {
    if (found || static_cast<int>(ts_node_end_point(node).row) + 1 < line) return Walk::kSkip;
    if (static_cast<int>(ts_node_start_point(node).row) + 1 > line) return Walk::kSkip;
    if (IsType(node, "function_definition") &&
        static_cast<int>(ts_node_start_point(node).row) + 1 == line) {
      found = node;
      return Walk::kStop;
    }
    return Walk::kDescend;
  });
  return found;
}

}  // namespace

std::vector<LineCopies> CopiesInOtherFiles(
    const RepoIndex& index, const std::function<absl::StatusOr<Document>(const std::string&)>& load,
    const Document& document, int line) {
  std::vector<LineCopies> out;
  std::optional<TSNode> statement = StatementAtLine(document, line - 1);
  if (!statement) return out;
  std::optional<TSNode> def = EnclosingOfType(*statement, {"function_definition"});
  if (!def) return out;
  const TSNode cls = ClassOfMethod(*def);
  const std::string class_name = ts_node_is_null(cls) ? "" : NameOf(document, cls);
  const std::string_view text = document.lines().Line(line - 1);
  std::map<std::string, size_t> slot_of_file;  // a file's place in `out`
  for (const FunctionInfo* function : index.FunctionsNamed(NameOf(document, *def))) {
    if (function->file == document.path() || function->class_name != class_name) continue;
    absl::StatusOr<Document> other = load(function->file);
    if (!other.ok()) continue;
    std::optional<TSNode> other_def = DefAtLine(*other, function->line);
    if (!other_def) continue;
    const int first = function->line;
    const int last = static_cast<int>(ts_node_end_point(*other_def).row) + 1;
    std::vector<int> lines;
    for (int at = first; at <= last && at <= other->lines().line_count(); ++at) {
      if (other->lines().Line(at - 1) == text) lines.push_back(at);
    }
    if (lines.empty()) continue;
    auto [slot, added] = slot_of_file.emplace(function->file, out.size());
    if (added) {
      out.push_back(LineCopies{*std::move(other), std::move(lines)});
    } else {
      for (int at : lines) out[slot->second].lines.push_back(at);
    }
  }
  return out;
}

}  // namespace smallfix
