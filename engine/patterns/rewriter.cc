#include "engine/patterns/rewriter.h"

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/index/repo_index.h"
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
  if (it == state.nodes.end()) return absl::NotFoundError(Concat("no capture @", target, " in this match"));
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
absl::StatusOr<std::pair<FileEdits*, TSNode>> FunctionTarget(const std::string& which,
                                                             const MatchContext& context,
                                                             MatchState& state,
                                                             std::map<std::string, FileEdits>& files) {
  if (which == "callee") {
    if (state.callee == nullptr) return absl::FailedPreconditionError("no callee was resolved");
    auto it = files.find(state.callee->file);
    if (it == files.end()) {
      absl::StatusOr<Document> document =
          state.callee->file == state.document->path()
              ? absl::StatusOr<Document>(*state.document)
              : (context.load ? context.load(state.callee->file)
                              : absl::StatusOr<Document>(absl::NotFoundError("no file loader")));
      if (!document.ok()) return document.status();
      it = files.emplace(state.callee->file, FileEdits{*std::move(document), EditSet()}).first;
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
  absl::StatusOr<TSNode> node = which == "enclosing" ? absl::StatusOr<TSNode>(state.statement)
                                                     : TargetNode(which, state);
  if (!node.ok()) return node.status();
  std::optional<TSNode> def = EnclosingOfType(*node, {"function_definition"});
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
        at = document.lines().LineEndWithNewline(document.lines().ToPosition(ts_node_end_byte(child)).line);
      }
      continue;
    }
    break;
  }
  return at;
}

absl::Status AddImport(const std::string& code, MatchState& state, std::map<std::string, FileEdits>& files) {
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

}  // namespace

absl::Status ApplyAction(const Template::Action& action, const MatchContext& context,
                         MatchState& state, std::map<std::string, FileEdits>& files) {
  const Args& args = action.args;
  const Bindings& b = state.bindings;
  const std::string& kind = action.kind;
  auto arg = [&](const char* key, std::string fallback = "") { return ExpandArg(args, key, b, fallback); };
  const std::string target = args.contains("target") ? args.at("target") : "statement";

  absl::StatusOr<Edit> edit = absl::UnimplementedError(kind);
  FileEdits* file = nullptr;
  if (kind == "insert-before" || kind == "insert-after" || kind == "wrap-if" || kind == "wrap-try") {
    absl::StatusOr<TSNode> statement = TargetStatement(target, state);
    if (!statement.ok()) return statement.status();
    file = &SiteFile(state, files);
    const Document& doc = file->document;
    if (kind == "insert-before" || kind == "insert-after") {
      absl::StatusOr<std::string> code = arg("code");
      if (!code.ok()) return code.status();
      edit = kind == "insert-before" ? InsertBefore(doc, *statement, *code) : InsertAfter(doc, *statement, *code);
    } else if (kind == "wrap-if") {
      absl::StatusOr<std::string> condition = arg("condition");
      absl::StatusOr<std::string> otherwise = arg("else");
      if (!condition.ok()) return condition.status();
      if (!otherwise.ok()) return otherwise.status();
      edit = otherwise->empty()
                 ? WrapInIf(doc, *statement, *statement, *condition)
                 : WrapInBlock(doc, *statement, *statement, Concat("if ", *condition, ":"),
                               Concat("else:\n", Reindent(*otherwise, "    ", "    ", "\n")));
    } else {
      absl::StatusOr<std::string> exception = arg("exception");
      absl::StatusOr<std::string> handler = arg("handler");
      if (!exception.ok()) return exception.status();
      if (!handler.ok()) return handler.status();
      edit = WrapInTry(doc, *statement, *statement, *exception, *handler);
    }
  } else if (kind == "replace") {
    absl::StatusOr<TSNode> node = TargetNode(target, state);
    absl::StatusOr<std::string> with = arg("with");
    if (!node.ok()) return node.status();
    if (!with.ok()) return with.status();
    file = &SiteFile(state, files);
    const Document& doc = file->document;
    std::string text = *with;
    if (text.find('\n') != std::string::npos) {
      // Continuation lines at the node's line indentation; the first line sits in place.
      const int line = doc.NodeStart(*node).line;
      text = Reindent(text, LeadingWhitespace(doc, line), IndentUnit(doc), doc.newline());
      text = text.substr(LeadingWhitespace(doc, line).size());
      text.resize(text.size() - doc.newline().size());
    }
    edit = Edit{ts_node_start_byte(*node), ts_node_end_byte(*node), std::move(text)};
  } else if (kind == "add-keyword" || kind == "drop-keyword" || kind == "rename-keyword") {
    absl::StatusOr<TSNode> call = TargetNode(args.at("call"), state);
    if (!call.ok()) return call.status();
    file = &SiteFile(state, files);
    const Document& doc = file->document;
    if (kind == "add-keyword") {
      absl::StatusOr<std::string> name = arg("name"), value = arg("value");
      if (!name.ok()) return name.status();
      if (!value.ok()) return value.status();
      edit = AddKeywordArgument(doc, *call, *name, *value);
    } else if (kind == "drop-keyword") {
      absl::StatusOr<std::string> name = arg("name");
      if (!name.ok()) return name.status();
      edit = DropKeywordArgument(doc, *call, *name);
    } else {
      absl::StatusOr<std::string> from = arg("from"), to = arg("to");
      if (!from.ok()) return from.status();
      if (!to.ok()) return to.status();
      edit = RenameKeywordArgument(doc, *call, *from, *to);
    }
  } else if (kind == "add-argument") {
    // A positional argument: at the end, or before a captured argument.
    absl::StatusOr<TSNode> call = TargetNode(args.at("call"), state);
    absl::StatusOr<std::string> value = arg("value");
    if (!call.ok()) return call.status();
    if (!value.ok()) return value.status();
    TSNode list = ts_node_child_by_field_name(*call, "arguments", 9);
    if (!IsType(list, "argument_list")) return absl::InvalidArgumentError("@call has no argument list");
    std::optional<TSNode> before;
    if (args.contains("before")) {
      absl::StatusOr<TSNode> node = TargetNode(args.at("before"), state);
      if (!node.ok()) return node.status();
      before = *node;
    } else {
      // Positional arguments go before the first keyword or ** argument.
      for (TSNode item : ListItems(list)) {
        if (IsType(item, "keyword_argument") || IsType(item, "dictionary_splat")) {
          before = item;
          break;
        }
      }
    }
    file = &SiteFile(state, files);
    edit = InsertListItem(file->document, list, before, *value);
  } else if (kind == "drop-argument") {
    absl::StatusOr<TSNode> argument = TargetNode(args.at("argument"), state);
    if (!argument.ok()) return argument.status();
    TSNode list = ts_node_parent(*argument);
    if (!IsType(list, "argument_list")) return absl::InvalidArgumentError("@argument is not an argument of a call");
    file = &SiteFile(state, files);
    edit = RemoveListItem(file->document, list, *argument);
  } else if (kind == "add-parameter" || kind == "set-default") {
    auto function = FunctionTarget(args.at("function"), context, state, files);
    if (!function.ok()) return function.status();
    file = function->first;
    absl::StatusOr<std::string> name = arg("name");
    if (!name.ok()) return name.status();
    if (kind == "add-parameter") {
      absl::StatusOr<std::string> value = arg("default");
      if (!value.ok()) return value.status();
      edit = AddParameter(file->document, function->second, *name, *value);
    } else {
      absl::StatusOr<std::string> value = arg("value");
      if (!value.ok()) return value.status();
      edit = SetParameterDefault(file->document, function->second, *name, *value);
    }
  } else if (kind == "add-import") {
    absl::StatusOr<std::string> code = arg("code");
    if (!code.ok()) return code.status();
    return AddImport(*code, state, files);
  }
  if (!edit.ok()) return edit.status();
  return file->edits.Add(*std::move(edit));
}

}  // namespace smallfix
