#include "engine/source/query.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/source/line_index.h"
#include "engine/source/python_language.h"

namespace smallfix {
namespace {

enum class Op { kEq, kMatch, kAnyOf };

// One parsed text predicate: `#[not-]OP? @capture ARG...`.
struct Predicate {
  Op op;
  bool negated = false;
  uint32_t capture = 0;
  std::optional<uint32_t> other_capture;  // #eq? @a @b
  std::vector<std::string> strings;       // #eq? @a "x", #any-of? @a "x" "y"
  std::shared_ptr<RE2> regex;             // #match?
};

const char* QueryErrorName(TSQueryError error) {
  switch (error) {
    case TSQueryErrorSyntax:
      return "syntax error";
    case TSQueryErrorNodeType:
      return "unknown node type";
    case TSQueryErrorField:
      return "unknown field";
    case TSQueryErrorCapture:
      return "unknown capture";
    case TSQueryErrorStructure:
      return "impossible pattern structure";
    case TSQueryErrorLanguage:
      return "language mismatch";
    default:
      return "error";
  }
}

std::string Where(std::string_view source, uint32_t offset) {
  const Position p = LineIndex(source).ToPosition(offset);
  return absl::StrFormat("line %d, column %d", p.line + 1, p.column + 1);
}

std::string StringValue(const TSQuery* query, uint32_t id) {
  uint32_t length = 0;
  const char* text = ts_query_string_value_for_id(query, id, &length);
  return std::string(text, length);
}

// The operator of a predicate's first step: `#[not-]eq?`, `#[not-]match?`, `#[not-]any-of?`.
absl::Status ReadOperator(const std::string& name, const std::string& where, Predicate& predicate) {
  std::string op = name;
  if (op.starts_with("not-")) {
    predicate.negated = true;
    op = op.substr(4);
  }
  if (op == "eq?") {
    predicate.op = Op::kEq;
  } else if (op == "match?") {
    predicate.op = Op::kMatch;
  } else if (op == "any-of?") {
    predicate.op = Op::kAnyOf;
  } else {
    return absl::InvalidArgumentError(Concat(
        "unsupported query predicate #", name, " in the pattern at ", where,
        " (smallfix supports #eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of?)"));
  }
  return absl::OkStatus();
}

// The value of a two-argument predicate (#eq?, #match?): a string (a compiled regex for
// #match?) or, for #eq?, another capture.
absl::Status ReadValue(const TSQuery* query, const TSQueryPredicateStep& value,
                       const std::string& name, const std::string& where, Predicate& predicate) {
  if (value.type == TSQueryPredicateStepTypeCapture) {
    if (predicate.op == Op::kMatch) {
      return absl::InvalidArgumentError(
          Concat("#", name, " in the pattern at ", where, " needs a regex string, not a capture"));
    }
    predicate.other_capture = value.value_id;
  } else {
    predicate.strings.push_back(StringValue(query, value.value_id));
  }
  if (predicate.op == Op::kMatch) {
    RE2::Options options;
    options.set_log_errors(false);
    predicate.regex = std::make_shared<RE2>(predicate.strings[0], options);
    if (!predicate.regex->ok()) {
      return absl::InvalidArgumentError(Concat("bad regex in #", name, " in the pattern at ", where,
                                               ": ", predicate.regex->error()));
    }
  }
  return absl::OkStatus();
}

// One predicate from its `count` steps (the operator, then its arguments; no Done step) of
// the pattern at `where`.
absl::StatusOr<Predicate> ReadPredicate(const TSQuery* query, const TSQueryPredicateStep* steps,
                                        uint32_t count, const std::string& where) {
  if (steps[0].type != TSQueryPredicateStepTypeString) {
    return absl::InvalidArgumentError(
        Concat("query predicate in the pattern at ", where, " has no operator"));
  }
  const std::string name = StringValue(query, steps[0].value_id);
  Predicate predicate;
  SMALLFIX_RETURN_IF_ERROR(ReadOperator(name, where, predicate));
  const uint32_t argc = count - 1;
  const TSQueryPredicateStep* args = steps + 1;
  if (argc < 2 || args[0].type != TSQueryPredicateStepTypeCapture) {
    return absl::InvalidArgumentError(
        Concat("#", name, " in the pattern at ", where, " needs a capture and then a value"));
  }
  predicate.capture = args[0].value_id;
  if (predicate.op != Op::kAnyOf) {
    if (argc != 2) {
      return absl::InvalidArgumentError(
          Concat("#", name, " in the pattern at ", where, " takes exactly two arguments"));
    }
    SMALLFIX_RETURN_IF_ERROR(ReadValue(query, args[1], name, where, predicate));
    return predicate;
  }
  for (uint32_t k = 1; k < argc; ++k) {
    if (args[k].type != TSQueryPredicateStepTypeString) {
      return absl::InvalidArgumentError(
          Concat("#", name, " in the pattern at ", where, " takes strings only"));
    }
    predicate.strings.push_back(StringValue(query, args[k].value_id));
  }
  return predicate;
}

struct QueryDeleter {
  void operator()(TSQuery* query) const { ts_query_delete(query); }
};
struct CursorDeleter {
  void operator()(TSQueryCursor* cursor) const { ts_query_cursor_delete(cursor); }
};

}  // namespace

struct Query::Impl {
  std::unique_ptr<TSQuery, QueryDeleter> query;
  std::vector<std::string> capture_names;
  std::vector<std::vector<Predicate>> predicates;  // per pattern
};

std::optional<TSNode> QueryMatch::Get(std::string_view name) const {
  for (const QueryCapture& capture : captures) {
    if (capture.name == name) return capture.node;
  }
  return std::nullopt;
}

std::vector<TSNode> QueryMatch::GetAll(std::string_view name) const {
  std::vector<TSNode> nodes;
  for (const QueryCapture& capture : captures) {
    if (capture.name == name) nodes.push_back(capture.node);
  }
  return nodes;
}

namespace {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where a field is given a predicate (`left: (#eq? ...)`, `left: (.x)`), or npos. tree-sitter
// 0.25's ts_query_new dereferences a null step analysing such a field inside an alternation
// (`[left: (.x) right: (identifier)]`: a segfault, found by the template loader's fuzzer), and a
// field names a child node, which a predicate is not; so it is refused before tree-sitter sees
// it. Strings and comments are skipped.
size_t FieldOnPredicate(std::string_view q) {
  auto skip_space = [&](size_t i) {
    while (i < q.size() && std::isspace(static_cast<unsigned char>(q[i]))) ++i;
    return i;
  };
  for (size_t i = 0; i < q.size(); ++i) {
    if (q[i] == '"') {
      for (++i; i < q.size() && q[i] != '"'; ++i) i += q[i] == '\\';
      continue;
    }
    if (q[i] == ';') {
      while (i < q.size() && q[i] != '\n') ++i;
      continue;
    }
    if (!IsNameChar(q[i]) ||
        (i > 0 && (IsNameChar(q[i - 1]) ||
                   std::string_view("@#.!").find(q[i - 1]) != std::string_view::npos)))
      continue;
    size_t end = i;
    while (end < q.size() && IsNameChar(q[end])) ++end;
    size_t at = skip_space(end);
    if (at < q.size() && q[at] == ':') {
      at = skip_space(at + 1);
      if (at < q.size() && q[at] == '(') {
        at = skip_space(at + 1);
        if (at < q.size() && (q[at] == '#' || q[at] == '.')) return i;
      }
    }
    i = end - 1;
  }
  return std::string_view::npos;
}

// The offset of an empty string written as a node pattern (`("")`, `[("") (x)]`), or npos.
// Tree-sitter takes it as an anonymous node with no text, which matches the parser's ERROR
// and MISSING nodes, never what its author meant. An empty string as a predicate's argument
// (`(#eq? @a "")`) is a string to compare with, and stays.
size_t EmptyStringNode(std::string_view q) {
  std::vector<bool> in_predicate;  // one per open `(` or `[`, innermost last
  for (size_t i = 0; i < q.size(); ++i) {
    if (q[i] == '"') {
      const size_t start = i;
      for (++i; i < q.size() && q[i] != '"'; ++i) i += q[i] == '\\';
      if (i == start + 1 && (in_predicate.empty() || !in_predicate.back())) return start;
      continue;
    }
    if (q[i] == ';') {
      while (i < q.size() && q[i] != '\n') ++i;
    } else if (q[i] == '(' || q[i] == '[') {
      size_t next = i + 1;
      while (next < q.size() && std::isspace(static_cast<unsigned char>(q[next]))) ++next;
      in_predicate.push_back(q[i] == '(' && next < q.size() && q[next] == '#');
    } else if ((q[i] == ')' || q[i] == ']') && !in_predicate.empty()) {
      in_predicate.pop_back();
    }
  }
  return std::string_view::npos;
}

}  // namespace

absl::StatusOr<Query> Query::Compile(std::string_view source) {
  if (const size_t empty = EmptyStringNode(source); empty != std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "query has an empty string as a node at %s; it would match only syntax errors",
        Where(source, static_cast<uint32_t>(empty))));
  }
  if (const size_t field = FieldOnPredicate(source); field != std::string_view::npos) {
    std::string_view name = source.substr(field);
    name = name.substr(0, name.find(':'));
    return absl::InvalidArgumentError(
        absl::StrFormat("query field `%s:` is given a predicate at %s; a field names a child node",
                        name, Where(source, static_cast<uint32_t>(field))));
  }
  uint32_t error_offset = 0;
  TSQueryError error_type = TSQueryErrorNone;
  std::unique_ptr<TSQuery, QueryDeleter> query(ts_query_new(PythonLanguage(), source.data(),
                                                            static_cast<uint32_t>(source.size()),
                                                            &error_offset, &error_type));
  if (query == nullptr) {
    // Show the text at the error so "unknown node type" says which one.
    std::string_view rest = source.substr(std::min<size_t>(error_offset, source.size()));
    rest = rest.substr(0, std::min<size_t>(rest.find_first_of("\n"), 30));
    return absl::InvalidArgumentError(absl::StrFormat("query %s at %s, near `%s`",
                                                      QueryErrorName(error_type),
                                                      Where(source, error_offset), rest));
  }
  auto impl = std::make_shared<Impl>();
  const uint32_t capture_count = ts_query_capture_count(query.get());
  for (uint32_t i = 0; i < capture_count; ++i) {
    uint32_t length = 0;
    const char* name = ts_query_capture_name_for_id(query.get(), i, &length);
    impl->capture_names.emplace_back(name, length);
  }
  const uint32_t pattern_count = ts_query_pattern_count(query.get());
  impl->predicates.resize(pattern_count);
  for (uint32_t pattern = 0; pattern < pattern_count; ++pattern) {
    const std::string where = Where(source, ts_query_start_byte_for_pattern(query.get(), pattern));
    uint32_t step_count = 0;
    const TSQueryPredicateStep* steps =
        ts_query_predicates_for_pattern(query.get(), pattern, &step_count);
    // Steps come as groups: a String step (the operator), arguments, then a Done step.
    for (uint32_t i = 0; i < step_count;) {
      uint32_t end = i;
      while (end < step_count && steps[end].type != TSQueryPredicateStepTypeDone) ++end;
      SMALLFIX_ASSIGN_OR_RETURN(Predicate predicate,
                                ReadPredicate(query.get(), steps + i, end - i, where));
      impl->predicates[pattern].push_back(std::move(predicate));
      i = end + 1;
    }
  }
  impl->query = std::move(query);
  return Query(std::move(impl));
}

int Query::pattern_count() const { return static_cast<int>(impl_->predicates.size()); }

const std::vector<std::string>& Query::capture_names() const { return impl_->capture_names; }

namespace {

bool Holds(const Predicate& predicate, const Document& document, const TSQueryMatch& match) {
  std::vector<std::string_view> texts;
  std::string_view other;
  bool have_other = false;
  for (uint16_t i = 0; i < match.capture_count; ++i) {
    const TSQueryCapture& capture = match.captures[i];
    if (capture.index == predicate.capture) texts.push_back(document.NodeText(capture.node));
    if (predicate.other_capture && capture.index == *predicate.other_capture && !have_other) {
      other = document.NodeText(capture.node);
      have_other = true;
    }
  }
  // A predicate on a capture that matched nothing (an optional or `*` capture) holds.
  if (texts.empty()) return true;
  if (predicate.other_capture && !have_other) return true;
  auto test = [&](std::string_view text) {
    switch (predicate.op) {
      case Op::kEq:
        return text == (predicate.other_capture ? other : std::string_view(predicate.strings[0]));
      case Op::kMatch:
        return RE2::PartialMatch(text, *predicate.regex);
      case Op::kAnyOf:
        return std::find(predicate.strings.begin(), predicate.strings.end(), text) !=
               predicate.strings.end();
    }
    return false;
  };
  return std::all_of(texts.begin(), texts.end(),
                     [&](std::string_view text) { return test(text) != predicate.negated; });
}

}  // namespace

std::vector<QueryMatch> Query::Run(const Document& document, TSNode node) const {
  return Run(document, node, ts_node_start_byte(node), ts_node_end_byte(node));
}

std::vector<QueryMatch> Query::Run(const Document& document, TSNode node, size_t start_byte,
                                   size_t end_byte) const {
  std::unique_ptr<TSQueryCursor, CursorDeleter> cursor(ts_query_cursor_new());
  ts_query_cursor_set_byte_range(cursor.get(), static_cast<uint32_t>(start_byte),
                                 static_cast<uint32_t>(end_byte));
  ts_query_cursor_exec(cursor.get(), impl_->query.get(), node);
  std::vector<QueryMatch> matches;
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor.get(), &match)) {
    const auto& predicates = impl_->predicates[match.pattern_index];
    if (!std::all_of(predicates.begin(), predicates.end(), [&](const Predicate& predicate) {
          return Holds(predicate, document, match);
        })) {
      continue;
    }
    QueryMatch result;
    result.pattern = match.pattern_index;
    for (uint16_t i = 0; i < match.capture_count; ++i) {
      result.captures.push_back(
          {impl_->capture_names[match.captures[i].index], match.captures[i].node});
    }
    matches.push_back(std::move(result));
  }
  return matches;
}

}  // namespace smallfix
