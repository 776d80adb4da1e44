#include "engine/localize/source_facts.h"

#include <re2/re2.h>

#include "engine/source/syntax.h"

namespace smallfix {

const Document* SourceFacts::Load(const std::string& file) {
  auto it = documents_.find(file);
  if (it == documents_.end()) {
    absl::StatusOr<Document> document = Document::Load(repo_root_ + "/" + file);
    std::optional<Document> kept;
    if (document.ok()) kept = *std::move(document);
    it = documents_.emplace(file, std::move(kept)).first;
  }
  return it->second ? &*it->second : nullptr;
}

std::optional<StatementFacts> SourceFacts::At(const std::string& file, int line) {
  const Document* document = Load(file);
  if (document == nullptr || line < 1 || line > document->lines().line_count()) {
    return std::nullopt;
  }
  StatementFacts facts;
  std::optional<TSNode> statement = StatementAtLine(*document, line - 1);
  TSNode anchor;
  if (statement) {
    facts.start_byte = ts_node_start_byte(*statement);
    facts.end_byte = ts_node_end_byte(*statement);
    anchor = *statement;
  } else {
    const size_t byte = document->lines().LineStart(line - 1);
    anchor = ts_node_descendant_for_byte_range(document->root(), static_cast<uint32_t>(byte),
                                               static_cast<uint32_t>(byte));
  }
  if (ts_node_is_null(anchor)) return facts;
  // A statement that is itself a def (a decorator line) belongs to its enclosing scope.
  TSNode start = IsType(anchor, "function_definition") ? ts_node_parent(anchor) : anchor;
  if (!ts_node_is_null(start)) {
    if (std::optional<TSNode> def = EnclosingOfType(start, {"function_definition"})) {
      TSNode name = ts_node_child_by_field_name(*def, "name", 4);
      if (!ts_node_is_null(name)) facts.function = std::string(document->NodeText(name));
    }
  }
  static const RE2* const rank_condition = new RE2(
      R"re(\b(?:(?:local_|global_|node_|data_parallel_|dp_|pp_|tp_)?rank|get_rank|get_local_rank|is_main_process|is_rank_0|is_first_rank|is_last_rank|stage_id|is_first_stage|is_last_stage)\b)re");
  for (TSNode node = anchor; !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (!IsType(node, "if_statement")) continue;
    TSNode condition = ts_node_child_by_field_name(node, "condition", 9);
    if (!ts_node_is_null(condition) &&
        RE2::PartialMatch(document->NodeText(condition), *rank_condition)) {
      facts.under_rank_condition = true;
      break;
    }
  }
  return facts;
}

}  // namespace smallfix
