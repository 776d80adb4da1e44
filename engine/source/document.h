#ifndef SMALLFIX_ENGINE_SOURCE_DOCUMENT_H_
#define SMALLFIX_ENGINE_SOURCE_DOCUMENT_H_

#include <tree_sitter/api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/line_index.h"

namespace smallfix {

// One Python source file: its exact bytes, its tree-sitter tree and a line index.
//
// The text is kept byte for byte (CRLF, tabs, a UTF-8 BOM), so edits and diffs touch only
// what a fix changes. A Document is immutable and cheap to copy: copies share the text
// and the tree. Editing makes a new Document (see edit.h).
class Document {
 private:
  struct Impl {
    struct TreeDeleter {
      void operator()(TSTree* tree) const { ts_tree_delete(tree); }
    };
    std::string path;
    std::string text;
    std::unique_ptr<TSTree, TreeDeleter> tree;
    LineIndex lines;  // views `text`, which never moves: Impl is heap-allocated and const
    size_t bom_size = 0;
    std::string newline = "\n";
  };

 public:
  // Largest file Load() reads; generated files beyond this are not repair targets.
  static constexpr size_t kMaxFileBytes = 256u << 20;

  // Parses `text`, which must be UTF-8. `path` is only a name for messages and diffs.
  static absl::StatusOr<Document> Parse(std::string path, std::string text);
  // Reads and parses a file.
  static absl::StatusOr<Document> Load(const std::string& path);
  // The same, named `name` (a repo-relative path for diffs and the index) instead of `path`:
  // one parse, where Load then Parse under another name would parse the file twice.
  static absl::StatusOr<Document> Load(const std::string& path, std::string name);

  // A change of `old`'s text: the bytes [start, end) replaced by `new_length` bytes.
  struct TextChange {
    size_t start = 0;
    size_t end = 0;
    size_t new_length = 0;
  };
  // Parses `text`, which is `old`'s text with `changes` applied (sorted by start, not
  // overlapping), reusing `old`'s tree: the changes are told to a copy of it (ts_tree_edit)
  // and tree-sitter re-parses only what they touched, so a small edit of a large file costs
  // about as much as the edit. The tree is the one Parse would give (edit_test checks).
  static absl::StatusOr<Document> Reparse(const Document& old, std::string text,
                                          const std::vector<TextChange>& changes);

  const std::string& path() const { return impl_->path; }
  std::string_view text() const { return impl_->text; }
  const LineIndex& lines() const { return impl_->lines; }
  TSNode root() const { return ts_tree_root_node(impl_->tree.get()); }
  const TSTree* tree() const { return impl_->tree.get(); }

  // Bytes of the UTF-8 byte order mark at the start (0 or 3); the tree starts after it.
  size_t bom_size() const { return impl_->bom_size; }
  // The file's line terminator: "\r\n" when its first line ends so, else "\n".
  std::string_view newline() const { return impl_->newline; }

  std::string_view NodeText(TSNode node) const;
  Position NodeStart(TSNode node) const;  // 0-based line and byte column
  // ERROR and MISSING nodes in the tree: a measure of how broken the file is.
  int CountSyntaxErrors() const;

 private:
  explicit Document(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  // Parse's work; `old_tree`, when given, is an edited copy of the previous tree to reuse.
  static absl::StatusOr<Document> Build(std::string path, std::string text, const TSTree* old_tree);

  std::shared_ptr<const Impl> impl_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_DOCUMENT_H_
