#include "engine/source/document.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/source/python_language.h"
#include "engine/source/syntax.h"
#include "engine/source/utf8.h"

namespace smallfix {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

}  // namespace

absl::StatusOr<Document> Document::Parse(std::string path, std::string text) {
  return Build(std::move(path), std::move(text), nullptr);
}

absl::StatusOr<Document> Document::Reparse(const Document& old, std::string text,
                                           const std::vector<TextChange>& changes) {
  const bool same_bom =
      old.bom_size() == (std::string_view(text).substr(0, kBom.size()) == kBom ? kBom.size() : 0);
  if (!same_bom || changes.empty()) return Parse(old.path(), std::move(text));
  std::unique_ptr<TSTree, Impl::TreeDeleter> tree(ts_tree_copy(old.tree()));
  // Where each change's new bytes start in `text`.
  std::vector<size_t> new_starts;
  long shift = 0;
  for (const TextChange& change : changes) {
    new_starts.push_back(change.start + shift);
    shift += static_cast<long>(change.new_length) - static_cast<long>(change.end - change.start);
  }
  // Last change first: the offsets of the ones before it are still those of the old text.
  for (size_t i = changes.size(); i-- > 0;) {
    const TextChange& change = changes[i];
    if (change.end < change.start || change.end > old.text().size() ||
        new_starts[i] + change.new_length > text.size()) {
      return Parse(old.path(), std::move(text));
    }
    const Position start = old.lines().ToPosition(change.start);
    const Position old_end = old.lines().ToPosition(change.end);
    const std::string_view inserted =
        std::string_view(text).substr(new_starts[i], change.new_length);
    TSPoint new_end = {static_cast<uint32_t>(start.line), static_cast<uint32_t>(start.column)};
    for (char c : inserted) {
      if (c == '\n') {
        ++new_end.row;
        new_end.column = 0;
      } else {
        ++new_end.column;
      }
    }
    const TSInputEdit edit = {
        .start_byte = static_cast<uint32_t>(change.start),
        .old_end_byte = static_cast<uint32_t>(change.end),
        .new_end_byte = static_cast<uint32_t>(change.start + change.new_length),
        .start_point = {static_cast<uint32_t>(start.line), static_cast<uint32_t>(start.column)},
        .old_end_point = {static_cast<uint32_t>(old_end.line),
                          static_cast<uint32_t>(old_end.column)},
        .new_end_point = new_end,
    };
    ts_tree_edit(tree.get(), &edit);
  }
  return Build(old.path(), std::move(text), tree.get());
}

absl::StatusOr<Document> Document::Build(std::string path, std::string text,
                                         const TSTree* old_tree) {
  if (text.size() > kMaxFileBytes) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d bytes is larger than the %d MiB smallfix parses", path, text.size(),
                        kMaxFileBytes >> 20));
  }
  if (absl::Status utf8 = ValidateUtf8(text); !utf8.ok()) {
    return absl::InvalidArgumentError(Concat(path, ": ", utf8.message()));
  }
  auto impl = std::make_shared<Impl>();
  impl->path = std::move(path);
  impl->text = std::move(text);
  const std::string_view body = impl->text;
  impl->bom_size = body.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  const size_t first_newline = body.find('\n');
  if (first_newline != std::string_view::npos && first_newline > 0 &&
      body[first_newline - 1] == '\r') {
    impl->newline = "\r\n";
  }
  impl->lines = LineIndex(impl->text);

  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  ts_parser_set_language(parser.get(), PythonLanguage());
  if (impl->bom_size > 0) {
    // Parse only what follows the BOM; offsets stay those of the whole text.
    const TSRange range = {.start_point = {0, static_cast<uint32_t>(impl->bom_size)},
                           .end_point = {UINT32_MAX, UINT32_MAX},
                           .start_byte = static_cast<uint32_t>(impl->bom_size),
                           .end_byte = UINT32_MAX};
    ts_parser_set_included_ranges(parser.get(), &range, 1);
  }
  impl->tree.reset(ts_parser_parse_string(parser.get(), old_tree, impl->text.data(),
                                          static_cast<uint32_t>(impl->text.size())));
  if (impl->tree == nullptr) {
    return absl::InternalError(Concat(impl->path, ": tree-sitter could not parse the file"));
  }
  return Document(std::move(impl));
}

absl::StatusOr<Document> Document::Load(const std::string& path) { return Load(path, path); }

absl::StatusOr<Document> Document::Load(const std::string& path, std::string name) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    return absl::InvalidArgumentError(Concat(path, ": is a directory, not a file"));
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error))
    return absl::InvalidArgumentError(Concat(path, ": not a regular file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(Concat("cannot open ", path, ": ", std::strerror(errno)));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return absl::InvalidArgumentError(Concat(path, ": not a regular file"));
  if (static_cast<size_t>(size) > kMaxFileBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %d bytes is larger than the %d MiB smallfix parses", path, size, kMaxFileBytes >> 20));
  }
  in.seekg(0);
  std::string text(static_cast<size_t>(size), '\0');
  if (!in.read(text.data(), size)) {
    return absl::DataLossError(Concat("cannot read ", path));
  }
  return Parse(std::move(name), std::move(text));
}

std::string_view Document::NodeText(TSNode node) const {
  const uint32_t start = ts_node_start_byte(node);
  const uint32_t end = ts_node_end_byte(node);
  return std::string_view(impl_->text).substr(start, end - start);
}

Position Document::NodeStart(TSNode node) const {
  return impl_->lines.ToPosition(ts_node_start_byte(node));
}

int Document::CountSyntaxErrors() const {
  int count = 0;
  WalkTree(root(), [&](TSNode node) {
    if (ts_node_is_error(node) || ts_node_is_missing(node)) ++count;
    // Only subtrees that contain an error are worth entering.
    return ts_node_has_error(node) ? Walk::kDescend : Walk::kSkip;
  });
  // A MISSING token that the grammar hides (`_newline`) is never visited by the walk, yet the
  // tree has an error: it counts once (the fuzzer found one after an edit that joined lines).
  if (count == 0 && ts_node_has_error(root())) count = 1;
  return count;
}

}  // namespace smallfix
