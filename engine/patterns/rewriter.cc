#include "engine/patterns/rewriter.h"

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/index/repo_index.h"
#include "engine/index/tree_walk.h"
#include "engine/patterns/import_placement.h"
#include "engine/source/call_edits.h"
#include "engine/source/comma_list.h"
#include "engine/source/indentation.h"
#include "engine/source/signature_edits.h"
#include "engine/source/statement_edits.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

using Args = std::map<std::string, std::string>;

absl::StatusOr<std::string> ExpandArg(const Args& args, const char* key, const Bindings& bindings,
                                      std::string fallback = "") {
  auto it = args.find(key);
  if (it == args.end()) return fallback;
  return Expand(it->second, bindings);
}

// A capture's node, or the site statement for "statement" (the default).
absl::StatusOr<TSNode> TargetNode(const std::string& target, const MatchState& state) {
  if (target.empty() || target == "statement") return state.statement;
  auto it = state.nodes.find(target);
  if (it == state.nodes.end())
    return absl::NotFoundError(Concat("no capture @", target, " in this match"));
  return it->second;
}

// The statement holding a target node (a capture inside the statement lifts to it).
absl::StatusOr<TSNode> TargetStatement(const std::string& target, const MatchState& state) {
  absl::StatusOr<TSNode> node = TargetNode(target, state);
  if (!node.ok()) return node;
  for (TSNode n = *node; !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (IsStatement(n)) return n;
  }
  return absl::NotFoundError(Concat("@", target, " is not inside a statement"));
}

FileEdits& SiteFile(const MatchState& state, std::map<std::string, FileEdits>& files) {
  auto it = files.find(state.document->path());
  if (it == files.end()) {
    it = files.emplace(state.document->path(), FileEdits{*state.document, EditSet()}).first;
  }
  return it->second;
}

// The def an action on a function means: a capture, the def enclosing the site, or the
// callee a look-up resolved (possibly in another file).
absl::StatusOr<std::pair<FileEdits*, TSNode>> FunctionTarget(
    const std::string& which, const MatchContext& context, MatchState& state,
    std::map<std::string, FileEdits>& files) {
  if (which == "callee") {
    if (state.callee == nullptr) return absl::FailedPreconditionError("no callee was resolved");
    auto it = files.find(state.callee->file);
    if (it == files.end()) {
      SMALLFIX_ASSIGN_OR_RETURN(
          Document document,
          state.callee->file == state.document->path()
              ? absl::StatusOr<Document>(*state.document)
              : (context.load ? context.load(state.callee->file)
                              : absl::StatusOr<Document>(absl::NotFoundError("no file loader"))));
      it = files.emplace(state.callee->file, FileEdits{std::move(document), EditSet()}).first;
    }
    const Document& document = it->second.document;
    // The index gives the line of `def`; the token there belongs to the function_definition.
    const int line = state.callee->line - 1;
    std::optional<TSNode> def;
    if (line >= 0 && line < document.lines().line_count()) {
      const uint32_t at = static_cast<uint32_t>(document.lines().LineStart(line) +
                                                LeadingWhitespace(document, line).size());
      def = EnclosingOfType(ts_node_descendant_for_byte_range(document.root(), at, at),
                            {"function_definition"});
    }
    if (!def) {
      return absl::NotFoundError(absl::StrFormat("no def of %s at %s:%d", state.callee->qualname,
                                                 state.callee->file, state.callee->line));
    }
    return std::make_pair(&it->second, *def);
  }
  FileEdits& site = SiteFile(state, files);
  SMALLFIX_ASSIGN_OR_RETURN(TSNode node, which == "enclosing"
                                             ? absl::StatusOr<TSNode>(state.statement)
                                             : TargetNode(which, state));
  std::optional<TSNode> def = EnclosingOfType(node, {"function_definition"});
  if (!def) return absl::NotFoundError(Concat("@", which, " is not in a function"));
  return std::make_pair(&site, *def);
}

// The place for a new import: after the module docstring, __future__ imports and the
// leading imports.
size_t ImportInsertionPoint(const Document& document) {
  size_t at = 0;
  TSNode root = document.root();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode child = ts_node_named_child(root, i);
    const bool docstring = i == 0 && IsType(child, "expression_statement") &&
                           IsType(ts_node_named_child(child, 0), "string");
    if (docstring || IsComment(child) || IsType(child, "import_statement") ||
        IsType(child, "import_from_statement") || IsType(child, "future_import_statement")) {
      if (!IsComment(child) || at > 0) {
        at = document.lines().LineEndWithNewline(
            document.lines().ToPosition(ts_node_end_byte(child)).line);
      }
      continue;
    }
    break;
  }
  return at;
}

absl::Status AddImport(const std::string& code, MatchState& state,
                       std::map<std::string, FileEdits>& files) {
  const Document& document = *state.document;
  // Already imported (the same line exists at the top level): nothing to do.
  for (int line = 0; line < document.lines().line_count(); ++line) {
    if (document.lines().Line(line) == code) return absl::OkStatus();
  }
  const size_t at = ImportInsertionPoint(document);
  std::string text = Reindent(code, "", "    ", document.newline());
  if (at > 0 && at == document.text().size() && !document.text().ends_with('\n')) {
    text = Concat(document.newline(), text);
  }
  return SiteFile(state, files).edits.Add({at, at, std::move(text)});
}

using Files = std::map<std::string, FileEdits>;

// Adds `edit` (or its failure) to `file`.
absl::Status AddEdit(FileEdits& file, absl::StatusOr<Edit> edit) {
  if (!edit.ok()) return edit.status();
  return file.edits.Add(*std::move(edit));
}

// The statement an action targets, in the site's file.
struct StatementTarget {
  FileEdits* file;
  TSNode statement;
};
absl::StatusOr<StatementTarget> TargetStatementOf(const Args& args, MatchState& state,
                                                  Files& files) {
  SMALLFIX_ASSIGN_OR_RETURN(
      TSNode statement, TargetStatement(args.contains("target") ? args.at("target") : "", state));
  return StatementTarget{&SiteFile(state, files), statement};
}

absl::Status Insert(const Args& args, MatchState& state, Files& files, bool before) {
  absl::StatusOr<StatementTarget> target = TargetStatementOf(args, state, files);
  absl::StatusOr<std::string> code = ExpandArg(args, "code", state.bindings);
  if (!target.ok()) return target.status();
  if (!code.ok()) return code.status();
  const Document& doc = target->file->document;
  return AddEdit(*target->file, before ? InsertBefore(doc, target->statement, *code)
                                       : InsertAfter(doc, target->statement, *code));
}

absl::Status InsertBeforeAction(const Args& args, const MatchContext&, MatchState& state,
                                Files& files) {
  return Insert(args, state, files, true);
}

absl::Status InsertAfterAction(const Args& args, const MatchContext&, MatchState& state,
                               Files& files) {
  return Insert(args, state, files, false);
}

absl::Status ReplaceAction(const Args& args, const MatchContext&, MatchState& state, Files& files) {
  absl::StatusOr<TSNode> node = TargetNode(args.contains("target") ? args.at("target") : "", state);
  absl::StatusOr<std::string> with = ExpandArg(args, "with", state.bindings);
  if (!node.ok()) return node.status();
  if (!with.ok()) return with.status();
  FileEdits& file = SiteFile(state, files);
  const Document& doc = file.document;
  std::string text = *with;
  if (text.find('\n') != std::string::npos) {
    // Continuation lines at the node's line indentation; the first line sits in place.
    const int line = doc.NodeStart(*node).line;
    text = Reindent(text, LeadingWhitespace(doc, line), IndentUnit(doc), doc.newline());
    text = text.substr(LeadingWhitespace(doc, line).size());
    text.resize(text.size() - doc.newline().size());
  }
  return AddEdit(file, Edit{ts_node_start_byte(*node), ts_node_end_byte(*node), std::move(text)});
}

// Deletes the statement's lines; the only statement of a block becomes `pass`.
absl::Status RemoveAction(const Args& args, const MatchContext&, MatchState& state, Files& files) {
  SMALLFIX_ASSIGN_OR_RETURN(StatementTarget target, TargetStatementOf(args, state, files));
  const Document& doc = target.file->document;
  const TSNode statement = target.statement;
  TSNode parent = ts_node_parent(statement);
  if (IsType(parent, "block") && NamedChildrenSkippingComments(parent).size() == 1) {
    return AddEdit(*target.file,
                   Edit{ts_node_start_byte(statement), ts_node_end_byte(statement), "pass"});
  }
  if (!StartsItsLine(doc, statement)) {
    return absl::FailedPreconditionError("the statement shares its line with code before it");
  }
  const int first = doc.NodeStart(statement).line;
  const int last = doc.lines().ToPosition(ts_node_end_byte(statement)).line;
  const size_t end = doc.lines().LineEndWithNewline(last);
  if (std::string_view(doc.text())
          .substr(ts_node_end_byte(statement), end - ts_node_end_byte(statement))
          .find_first_not_of(" \t\r\n") != std::string_view::npos) {
    return absl::FailedPreconditionError("the statement shares its line with code after it");
  }
  return AddEdit(*target.file, Edit{doc.lines().LineStart(first), end, ""});
}

absl::Status WrapIfAction(const Args& args, const MatchContext&, MatchState& state, Files& files) {
  absl::StatusOr<StatementTarget> target = TargetStatementOf(args, state, files);
  absl::StatusOr<std::string> condition = ExpandArg(args, "condition", state.bindings);
  absl::StatusOr<std::string> otherwise = ExpandArg(args, "else", state.bindings);
  if (!target.ok()) return target.status();
  if (!condition.ok()) return condition.status();
  if (!otherwise.ok()) return otherwise.status();
  const Document& doc = target->file->document;
  const TSNode st = target->statement;
  return AddEdit(*target->file,
                 otherwise->empty()
                     ? WrapInIf(doc, st, st, *condition)
                     : WrapInBlock(doc, st, st, Concat("if ", *condition, ":"),
                                   Concat("else:\n", Reindent(*otherwise, "    ", "    ", "\n"))));
}

absl::Status WrapTryAction(const Args& args, const MatchContext&, MatchState& state, Files& files) {
  absl::StatusOr<StatementTarget> target = TargetStatementOf(args, state, files);
  absl::StatusOr<std::string> exception = ExpandArg(args, "exception", state.bindings);
  absl::StatusOr<std::string> handler = ExpandArg(args, "handler", state.bindings);
  if (!target.ok()) return target.status();
  if (!exception.ok()) return exception.status();
  if (!handler.ok()) return handler.status();
  const TSNode st = target->statement;
  return AddEdit(*target->file, WrapInTry(target->file->document, st, st, *exception, *handler));
}

absl::Status WrapWithAction(const Args& args, const MatchContext&, MatchState& state,
                            Files& files) {
  absl::StatusOr<StatementTarget> target = TargetStatementOf(args, state, files);
  absl::StatusOr<std::string> context = ExpandArg(args, "context", state.bindings);
  if (!target.ok()) return target.status();
  if (!context.ok()) return context.status();
  const TSNode st = target->statement;
  return AddEdit(*target->file,
                 WrapInBlock(target->file->document, st, st, Concat("with ", *context, ":")));
}

absl::Status KeywordAction(const Args& args, MatchState& state, Files& files, ActionKind kind) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode call, TargetNode(args.at("call"), state));
  FileEdits& file = SiteFile(state, files);
  const Document& doc = file.document;
  const Bindings& b = state.bindings;
  if (kind == ActionKind::kAddKeyword) {
    absl::StatusOr<std::string> name = ExpandArg(args, "name", b),
                                value = ExpandArg(args, "value", b);
    if (!name.ok()) return name.status();
    if (!value.ok()) return value.status();
    return AddEdit(file, AddKeywordArgument(doc, call, *name, *value));
  }
  if (kind == ActionKind::kDropKeyword) {
    SMALLFIX_ASSIGN_OR_RETURN(std::string name, ExpandArg(args, "name", b));
    return AddEdit(file, DropKeywordArgument(doc, call, name));
  }
  absl::StatusOr<std::string> from = ExpandArg(args, "from", b), to = ExpandArg(args, "to", b);
  if (!from.ok()) return from.status();
  if (!to.ok()) return to.status();
  return AddEdit(file, RenameKeywordArgument(doc, call, *from, *to));
}

absl::Status AddKeywordAction(const Args& args, const MatchContext&, MatchState& state,
                              Files& files) {
  return KeywordAction(args, state, files, ActionKind::kAddKeyword);
}
absl::Status DropKeywordAction(const Args& args, const MatchContext&, MatchState& state,
                               Files& files) {
  return KeywordAction(args, state, files, ActionKind::kDropKeyword);
}
absl::Status RenameKeywordAction(const Args& args, const MatchContext&, MatchState& state,
                                 Files& files) {
  return KeywordAction(args, state, files, ActionKind::kRenameKeyword);
}

// A positional argument: at the end, or before a captured argument.
absl::Status AddArgumentAction(const Args& args, const MatchContext&, MatchState& state,
                               Files& files) {
  absl::StatusOr<TSNode> call = TargetNode(args.at("call"), state);
  absl::StatusOr<std::string> value = ExpandArg(args, "value", state.bindings);
  if (!call.ok()) return call.status();
  if (!value.ok()) return value.status();
  TSNode list = ts_node_child_by_field_name(*call, "arguments", 9);
  if (!IsType(list, "argument_list"))
    return absl::InvalidArgumentError("@call has no argument list");
  std::optional<TSNode> before;
  if (args.contains("before")) {
    SMALLFIX_ASSIGN_OR_RETURN(TSNode node, TargetNode(args.at("before"), state));
    before = node;
  } else {
    // Positional arguments go before the first keyword or ** argument.
    for (TSNode item : ListItems(list)) {
      if (IsType(item, "keyword_argument") || IsType(item, "dictionary_splat")) {
        before = item;
        break;
      }
    }
  }
  FileEdits& file = SiteFile(state, files);
  return AddEdit(file, InsertListItem(file.document, list, before, *value));
}

// Removes the node the argument `key` captures, with its comma, from its parent, which must be
// a `list_type` (else `error`).
absl::Status DropListItem(const Args& args, const char* key, std::string_view list_type,
                          const char* error, MatchState& state, Files& files) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode item, TargetNode(args.at(key), state));
  TSNode list = ts_node_parent(item);
  if (!IsType(list, list_type)) return absl::InvalidArgumentError(error);
  FileEdits& file = SiteFile(state, files);
  return AddEdit(file, RemoveListItem(file.document, list, item));
}

absl::Status DropArgumentAction(const Args& args, const MatchContext&, MatchState& state,
                                Files& files) {
  return DropListItem(args, "argument", "argument_list", "@argument is not an argument of a call",
                      state, files);
}

absl::Status DropParameterAction(const Args& args, const MatchContext&, MatchState& state,
                                 Files& files) {
  return DropListItem(args, "parameter", "parameters", "@parameter is not a parameter of a def",
                      state, files);
}

absl::Status AddParameterAction(const Args& args, const MatchContext& context, MatchState& state,
                                Files& files) {
  auto function = FunctionTarget(args.at("function"), context, state, files);
  if (!function.ok()) return function.status();
  absl::StatusOr<std::string> name = ExpandArg(args, "name", state.bindings);
  absl::StatusOr<std::string> value = ExpandArg(args, "default", state.bindings);
  if (!name.ok()) return name.status();
  if (!value.ok()) return value.status();
  return AddEdit(*function->first,
                 AddParameter(function->first->document, function->second, *name, *value));
}

absl::Status SetDefaultAction(const Args& args, const MatchContext& context, MatchState& state,
                              Files& files) {
  auto function = FunctionTarget(args.at("function"), context, state, files);
  if (!function.ok()) return function.status();
  absl::StatusOr<std::string> name = ExpandArg(args, "name", state.bindings);
  absl::StatusOr<std::string> value = ExpandArg(args, "value", state.bindings);
  if (!name.ok()) return name.status();
  if (!value.ok()) return value.status();
  return AddEdit(*function->first,
                 SetParameterDefault(function->first->document, function->second, *name, *value));
}

absl::Status AddImportAction(const Args& args, const MatchContext&, MatchState& state,
                             Files& files) {
  SMALLFIX_ASSIGN_OR_RETURN(std::string code, ExpandArg(args, "code", state.bindings));
  return AddImport(code, state, files);
}

absl::Status PlaceImportAction(const Args& args, const MatchContext& context, MatchState& state,
                               Files& files) {
  SMALLFIX_ASSIGN_OR_RETURN(std::string code, ExpandArg(args, "code", state.bindings));
  const IsFirstParty first_party = [&](std::string_view top) {
    return context.index != nullptr && context.index->HasModule(top);
  };
  FileEdits& file = SiteFile(state, files);
  // One statement per line, each placed on its own against the unedited file; insertions at
  // one place land in the order given.
  for (size_t start = 0; start < code.size();) {
    size_t end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    const std::string line = code.substr(start, end - start);
    start = end + 1;
    if (Trim(line).empty()) continue;
    absl::StatusOr<Edit> edit = PlaceImport(file.document, line, first_party);
    if (absl::IsNotFound(edit.status())) continue;  // already imported
    if (!edit.ok()) return edit.status();
    SMALLFIX_RETURN_IF_ERROR(file.edits.Add(*std::move(edit)));
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<ActionSpec>& ActionSpecs() {
  using K = ActionKind;
  static const std::vector<ActionSpec>* specs = new std::vector<ActionSpec>{
      {K::kInsertBefore, "insert-before", {"code"}, {"target"}, InsertBeforeAction},
      {K::kInsertAfter, "insert-after", {"code"}, {"target"}, InsertAfterAction},
      {K::kReplace, "replace", {"with"}, {"target"}, ReplaceAction},
      {K::kRemove, "remove", {}, {"target"}, RemoveAction},
      {K::kWrapIf, "wrap-if", {"condition"}, {"target", "else"}, WrapIfAction},
      {K::kWrapTry, "wrap-try", {"exception", "handler"}, {"target"}, WrapTryAction},
      {K::kWrapWith, "wrap-with", {"context"}, {"target"}, WrapWithAction},
      {K::kAddKeyword, "add-keyword", {"call", "name", "value"}, {}, AddKeywordAction},
      {K::kDropKeyword, "drop-keyword", {"call", "name"}, {}, DropKeywordAction},
      {K::kRenameKeyword, "rename-keyword", {"call", "from", "to"}, {}, RenameKeywordAction},
      {K::kAddArgument, "add-argument", {"call", "value"}, {"before"}, AddArgumentAction},
      {K::kDropArgument, "drop-argument", {"argument"}, {}, DropArgumentAction},
      {K::kDropParameter, "drop-parameter", {"parameter"}, {}, DropParameterAction},
      {K::kAddParameter, "add-parameter", {"function", "name"}, {"default"}, AddParameterAction},
      {K::kSetDefault, "set-default", {"function", "name", "value"}, {}, SetDefaultAction},
      {K::kAddImport, "add-import", {"code"}, {}, AddImportAction},
      {K::kPlaceImport, "place-import", {"code"}, {}, PlaceImportAction},
  };
  return *specs;
}

const ActionSpec* FindActionSpec(std::string_view name) {
  for (const ActionSpec& spec : ActionSpecs()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

const ActionSpec& SpecOf(ActionKind kind) {
  for (const ActionSpec& spec : ActionSpecs()) {
    if (spec.kind == kind) return spec;
  }
  return ActionSpecs().front();  // unreachable: the table names every kind (rewriter_test)
}

absl::Status ApplyAction(const Template::Action& action, const MatchContext& context,
                         MatchState& state, std::map<std::string, FileEdits>& files) {
  return SpecOf(action.kind).apply(action.args, context, state, files);
}

}  // namespace smallfix
