#include "engine/source/edit.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "engine/base/status_macros.h"

namespace smallfix {

absl::Status EditSet::Add(Edit edit) {
  if (edit.end < edit.start) {
    return absl::InvalidArgumentError(
        absl::StrFormat("edit range [%d, %d) ends before it starts", edit.start, edit.end));
  }
  for (const Edit& other : edits_) {
    const bool both_inserts_at_same_place =
        edit.start == edit.end && other.start == other.end && edit.start == other.start;
    // Half-open ranges overlap when each starts before the other ends; an insertion
    // strictly inside a replaced range overlaps it too.
    const bool overlap =
        std::max(edit.start, other.start) < std::min(edit.end, other.end) ||
        (edit.start == edit.end && other.start < edit.start && edit.start < other.end) ||
        (other.start == other.end && edit.start < other.start && other.start < edit.end);
    if (overlap && !both_inserts_at_same_place) {
      return absl::InvalidArgumentError(
          absl::StrFormat("edit of bytes [%d, %d) overlaps the edit of bytes [%d, %d)", edit.start,
                          edit.end, other.start, other.end));
    }
  }
  // By start; at one start an insertion goes before a replacement of the bytes there (it lands
  // in front of them), and equal keys keep the order they were added in.
  auto position =
      std::upper_bound(edits_.begin(), edits_.end(), edit, [](const Edit& a, const Edit& b) {
        return std::pair(a.start, a.end != a.start) < std::pair(b.start, b.end != b.start);
      });
  edits_.insert(position, std::move(edit));
  return absl::OkStatus();
}

absl::StatusOr<std::string> EditSet::Apply(std::string_view text) const {
  std::string out;
  size_t added = 0;
  for (const Edit& edit : edits_) added += edit.replacement.size();
  out.reserve(text.size() + added);
  size_t copied = 0;
  for (const Edit& edit : edits_) {
    if (edit.end > text.size()) {
      return absl::OutOfRangeError(
          absl::StrFormat("edit of bytes [%d, %d) lies past the end of a %d-byte text", edit.start,
                          edit.end, text.size()));
    }
    if (edit.start < copied) {
      return absl::InternalError(absl::StrFormat(
          "edit of bytes [%d, %d) starts inside the edit before it", edit.start, edit.end));
    }
    out.append(text.substr(copied, edit.start - copied));
    out.append(edit.replacement);
    copied = edit.end;
  }
  out.append(text.substr(copied));
  return out;
}

absl::StatusOr<Document> ApplyEdits(const Document& document, const EditSet& edits) {
  SMALLFIX_ASSIGN_OR_RETURN(std::string text, edits.Apply(document.text()));
  std::vector<Document::TextChange> changes;
  changes.reserve(edits.edits().size());
  for (const Edit& edit : edits.edits())
    changes.push_back({edit.start, edit.end, edit.replacement.size()});
  SMALLFIX_ASSIGN_OR_RETURN(Document edited, Document::Reparse(document, std::move(text), changes));
  const int before = document.CountSyntaxErrors();
  const int after = edited.CountSyntaxErrors();
  if (after > before) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s: the edit breaks the syntax (%d syntax error node(s) after it, %d before)",
        document.path(), after, before));
  }
  return edited;
}

}  // namespace smallfix
