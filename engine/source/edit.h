#ifndef SMALLFIX_ENGINE_SOURCE_EDIT_H_
#define SMALLFIX_ENGINE_SOURCE_EDIT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/source/document.h"

namespace smallfix {

// Replace the bytes [start, end) of a text with `replacement` (start == end inserts).
struct Edit {
  size_t start = 0;
  size_t end = 0;
  std::string replacement;
  friend bool operator==(const Edit&, const Edit&) = default;
};

// Non-overlapping edits of one text, applied together in one pass.
class EditSet {
 public:
  // Rejects an edit that overlaps one already added. Two insertions at the same offset
  // are allowed and land in the order they were added.
  absl::Status Add(Edit edit);
  const std::vector<Edit>& edits() const { return edits_; }
  bool empty() const { return edits_.empty(); }

  // The text with every edit applied; an edit past the end of `text` is an error.
  absl::StatusOr<std::string> Apply(std::string_view text) const;

 private:
  std::vector<Edit> edits_;  // sorted by start, stable for equal starts
};

// Applies `edits` to `document` and re-parses. Fails when the result has more syntax
// errors (ERROR or MISSING nodes) than the original: an edit must not break the file,
// but a file that was already broken elsewhere can still be repaired.
absl::StatusOr<Document> ApplyEdits(const Document& document, const EditSet& edits);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_EDIT_H_
