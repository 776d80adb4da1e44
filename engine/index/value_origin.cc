#include "engine/index/value_origin.h"

#include <algorithm>
#include <deque>

#include "engine/base/concat.h"
#include "engine/index/function_exits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// Lines offered per step: the nearest assignments and returns are the likely causes.
constexpr size_t kMaxPerStep = 3;

int LineOf(const Document& document, TSNode node) { return document.NodeStart(node).line + 1; }

// True when the assignment's target (a name, self.x, or one element of a tuple) is `name`;
// with `element_writes` also `name[k]`.
bool Assigns(const Document& document, TSNode target, std::string_view name, bool element_writes) {
  if (document.NodeText(target) == name) return true;
  if (element_writes && IsType(target, "subscript") &&
      document.NodeText(ts_node_child_by_field_name(target, "value", 5)) == name) {
    return true;
  }
  if (IsType(target, "pattern_list") || IsType(target, "tuple_pattern") ||
      IsType(target, "tuple") || IsType(target, "list_pattern")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(target); ++i) {
      if (document.NodeText(ts_node_named_child(target, i)) == name) return true;
    }
  }
  return false;
}

// The assignments of `name` in `scope` that start before byte `before`, in order. Nested defs
// and classes are left out unless `into_defs` (self.x is assigned in any method).
std::vector<TSNode> Assignments(const Document& document, TSNode scope, std::string_view name,
                                size_t before, bool into_defs, bool element_writes) {
  std::vector<TSNode> found;
  WalkTree(scope, [&](TSNode node) {
    if (ts_node_start_byte(node) >= before) return Walk::kStop;
    const bool nested =
        !ts_node_eq(node, scope) && (IsType(node, "class_definition") || IsType(node, "lambda") ||
                                     (!into_defs && IsType(node, "function_definition")));
    if (nested) return Walk::kSkip;
    if ((IsType(node, "assignment") || IsType(node, "augmented_assignment")) &&
        Assigns(document, ts_node_child_by_field_name(node, "left", 4), name, element_writes)) {
      found.push_back(node);
    }
    return Walk::kDescend;
  });
  return found;
}

// The def of `function` in `document` (the index gives the line of its `def`).
std::optional<TSNode> DefOf(const Document& document, const FunctionInfo& function) {
  std::optional<TSNode> statement = StatementAtLine(document, function.line - 1);
  if (!statement) return std::nullopt;
  TSNode node = *statement;
  if (IsType(node, "decorated_definition"))
    node = ts_node_child_by_field_name(node, "definition", 10);
  if (!IsType(node, "function_definition")) return std::nullopt;
  return node;
}

class Tracer {
 public:
  Tracer(const RepoIndex* index, const DocumentLoader& load, int max_hops, bool element_writes)
      : index_(index), load_(load), max_hops_(max_hops), element_writes_(element_writes) {}

  // The origins of `name` read before `before` in `def` (or at module level when def is
  // null) of `document`, `hops` steps from the failure.
  void Trace(const Document& document, std::optional<TSNode> def, size_t before,
             std::string_view name, int hops) {
    if (hops > max_hops_) return;
    std::vector<TSNode> assignments;
    if (name.starts_with("self.") && def) {
      const TSNode cls = ClassOfMethod(*def);
      if (!ts_node_is_null(cls)) {
        assignments = Assignments(document, cls, name, ts_node_end_byte(cls), /*into_defs=*/true,
                                  element_writes_);
      }
    } else {
      const TSNode scope = def ? ts_node_child_by_field_name(*def, "body", 4) : document.root();
      assignments =
          Assignments(document, scope, name, before, /*into_defs=*/false, element_writes_);
    }
    // The last assignments first: the nearest is the one the value came from on the straight path.
    std::reverse(assignments.begin(), assignments.end());
    if (assignments.size() > kMaxPerStep) assignments.resize(kMaxPerStep);
    for (TSNode assignment : assignments) {
      Add(document, assignment, hops, Concat("`", name, "` is assigned here"));
      TSNode value = ts_node_child_by_field_name(assignment, "right", 5);
      if (IsType(value, "await")) value = ts_node_named_child(value, 0);
      if (IsType(value, "call")) FollowCall(document, value, hops + 1);
    }
  }

  std::vector<ValueOrigin> Take() { return std::move(origins_); }

 private:
  void Add(const Document& document, TSNode node, int hops, std::string why) {
    const int line = LineOf(document, node);
    for (const ValueOrigin& origin : origins_) {
      if (origin.file == document.path() && origin.line == line) return;
    }
    origins_.push_back({document.path(), line, hops, std::move(why)});
  }

  // The callee's returns, its end if it can run off it, and where a returned name was set.
  void FollowCall(const Document& document, TSNode call, int hops) {
    if (hops > max_hops_ || index_ == nullptr) return;
    const std::vector<const FunctionInfo*> callees = index_->ResolveCall(document, call);
    if (callees.empty()) return;
    const FunctionInfo& callee = *callees.front();
    absl::StatusOr<Document> loaded =
        callee.file == document.path()
            ? absl::StatusOr<Document>(document)
            : (load_ ? load_(callee.file) : absl::NotFoundError("no loader"));
    if (!loaded.ok()) return;
    documents_.push_back(*std::move(loaded));
    const Document& file = documents_.back();
    std::optional<TSNode> def = DefOf(file, callee);
    if (!def) return;
    const TSNode end = FallThroughStatement(file, *def);
    if (!ts_node_is_null(end))
      Add(file, end, hops, Concat(callee.qualname, "() can run off its end here (None)"));
    std::vector<TSNode> returns = ReturnStatements(*def);
    if (returns.size() > kMaxPerStep) returns.resize(kMaxPerStep);
    for (TSNode statement : returns) {
      Add(file, statement, hops, Concat(callee.qualname, "() returns here"));
      if (ts_node_named_child_count(statement) == 0) continue;
      TSNode value = ts_node_named_child(statement, 0);
      if (IsType(value, "identifier")) {
        Trace(file, def, ts_node_start_byte(statement), file.NodeText(value), hops + 1);
      }
    }
  }

  const RepoIndex* index_;
  const DocumentLoader& load_;
  const int max_hops_;
  const bool element_writes_;
  std::vector<ValueOrigin> origins_;
  // Documents of callees, kept while their nodes are in use (a deque keeps them in place).
  std::deque<Document> documents_;
};

}  // namespace

std::vector<ValueOrigin> OriginsOf(const Document& document, int line, std::string_view name,
                                   const RepoIndex* index, const DocumentLoader& load, int max_hops,
                                   bool element_writes) {
  std::optional<TSNode> statement = StatementAtLine(document, line - 1);
  if (!statement) return {};
  Tracer tracer(index, load, std::clamp(max_hops, 1, 3), element_writes);
  tracer.Trace(document, EnclosingOfType(*statement, {"function_definition"}),
               ts_node_start_byte(*statement), name, 1);
  std::vector<ValueOrigin> origins = tracer.Take();
  std::stable_sort(origins.begin(), origins.end(),
                   [](const ValueOrigin& a, const ValueOrigin& b) { return a.hops < b.hops; });
  return origins;
}

}  // namespace smallfix
