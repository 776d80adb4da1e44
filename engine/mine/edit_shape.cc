#include "engine/mine/edit_shape.h"

#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/source/syntax.h"

namespace smallfix::mine {
namespace {

// Longer shapes are cut: they cluster alone anyway and would drown the listing.
constexpr size_t kMaxShapeText = 100;

std::string Cut(std::string text) {
  if (text.size() > kMaxShapeText) text = text.substr(0, kMaxShapeText) + " ...";
  return text;
}

// Drops separator commas at the ends, so "add `, $K=$A`" reads "add `$K=$A`".
std::vector<TSNode> TrimCommas(std::vector<TSNode> nodes) {
  while (!nodes.empty() && std::string_view(ts_node_type(nodes.front())) == ",")
    nodes.erase(nodes.begin());
  while (!nodes.empty() && std::string_view(ts_node_type(nodes.back())) == ",") nodes.pop_back();
  return nodes;
}

// Where, in words, the edit happens: what the parent node is.
std::string Where(const Document& document, TSNode parent, const std::vector<TSNode>& nodes,
                  Abstracter& names) {
  if (ts_node_is_null(parent)) return "";
  const std::string_view type = ts_node_type(parent);
  if (type == "argument_list") {
    const TSNode call = ts_node_parent(parent);
    if (!ts_node_is_null(call) && IsType(call, "call")) {
      const TSNode function = ts_node_child_by_field_name(call, "function", 8);
      if (!ts_node_is_null(function)) {
        // A method call is named by its attribute, whose object does not matter here.
        TSNode name = function;
        if (IsType(function, "attribute"))
          name = ts_node_child_by_field_name(function, "attribute", 9);
        return absl::StrCat("in the arguments of a call of ", names.Abstract(document, name));
      }
    }
    return "in a call's arguments";
  }
  if (type == "parameters") return "in a def's parameters";
  if (type == "block" || type == "module") return "";
  (void)nodes;
  return absl::StrCat("in ", std::string(type));
}

// "before a statement using $A" when the statement after an insertion uses a name that the
// inserted code uses too (the shape of a guard), else "before a statement" or at a block's end.
std::string Anchor(const Document& after, TSNode next, const std::string& inserted_text,
                   Abstracter& names) {
  if (ts_node_is_null(next)) return "at the end of a block";
  std::string used;
  WalkTree(next, [&](TSNode node) {
    if (!IsType(node, "identifier")) return Walk::kDescend;
    const std::string placeholder = names.PlaceholderOf(after.NodeText(node));
    if (!placeholder.empty() && absl::StrContains(inserted_text, placeholder)) {
      used = placeholder;
      return Walk::kStop;
    }
    return Walk::kSkip;
  });
  return used.empty() ? "before a statement" : absl::StrCat("before a statement using ", used);
}

}  // namespace

std::string AbstractEdit::Describe() const {
  std::string text;
  if (kind == "insert") text = absl::StrCat("insert `", after, "`");
  if (kind == "delete") text = absl::StrCat("delete `", before, "`");
  if (kind == "change") text = absl::StrCat("change `", before, "` to `", after, "`");
  if (!where.empty()) absl::StrAppend(&text, " ", where);
  return text;
}

AbstractEdit AbstractTreeEdit(const Document& before, const Document& after, const TreeEdit& edit,
                              Abstracter& names) {
  AbstractEdit out;
  const std::vector<TSNode> removed = TrimCommas(edit.removed),
                            inserted = TrimCommas(edit.inserted);
  out.before = Cut(names.Abstract(before, removed));
  out.after = Cut(names.Abstract(after, inserted));
  out.kind = removed.empty() ? "insert" : inserted.empty() ? "delete" : "change";
  const bool statements = IsType(edit.after_parent, "block") || IsType(edit.after_parent, "module");
  if (out.kind == "insert" && statements) {
    out.where = Anchor(after, edit.after_next, out.after, names);
  } else {
    out.where = Where(after, edit.after_parent, inserted, names);
  }
  return out;
}

std::vector<HunkShape> ShapeCommit(const MinedCommit& commit) {
  std::vector<HunkShape> shapes;
  for (const ChangedFile& file : commit.files) {
    absl::StatusOr<Document> before = Document::Parse(file.path, file.before);
    absl::StatusOr<Document> after = Document::Parse(file.path, file.after);
    if (!before.ok() || !after.ok() || after->CountSyntaxErrors() > 0) continue;
    const std::vector<TreeEdit> edits = DiffTrees(*before, *after);
    for (const LineHunk& hunk : file.hunks) {
      // Hunk ranges as 0-based rows; a pure insertion or deletion touches the row it sits at.
      const int old_first = hunk.old_start - 1,
                old_last = old_first + std::max(hunk.old_lines, 1) - 1;
      const int new_first = hunk.new_start - 1,
                new_last = new_first + std::max(hunk.new_lines, 1) - 1;
      Abstracter names;
      HunkShape shape{commit.sha, commit.summary, file.path, hunk.new_start};
      for (const TreeEdit& edit : edits) {
        const bool in_new =
            !edit.inserted.empty() && edit.after_row <= new_last && edit.after_end_row >= new_first;
        const bool in_old = !edit.removed.empty() && edit.before_row <= old_last &&
                            edit.before_end_row >= old_first;
        // An edit is counted in the first hunk it meets.
        const bool first_hunk =
            &hunk == &file.hunks.front() ||
            !std::any_of(file.hunks.begin(), file.hunks.begin() + (&hunk - file.hunks.data()),
                         [&](const LineHunk& h) {
                           const int of = h.old_start - 1, ol = of + std::max(h.old_lines, 1) - 1;
                           const int nf = h.new_start - 1, nl = nf + std::max(h.new_lines, 1) - 1;
                           return (!edit.inserted.empty() && edit.after_row <= nl &&
                                   edit.after_end_row >= nf) ||
                                  (!edit.removed.empty() && edit.before_row <= ol &&
                                   edit.before_end_row >= of);
                         });
        if ((in_new || in_old) && first_hunk)
          shape.edits.push_back(AbstractTreeEdit(*before, *after, edit, names));
      }
      if (shape.edits.empty()) continue;
      std::vector<std::string> parts;
      for (const AbstractEdit& edit : shape.edits) parts.push_back(edit.Describe());
      shape.shape = absl::StrJoin(parts, " + ");
      shapes.push_back(std::move(shape));
    }
  }
  return shapes;
}

}  // namespace smallfix::mine
