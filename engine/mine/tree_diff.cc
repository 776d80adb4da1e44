#include "engine/mine/tree_diff.h"

#include <algorithm>
#include <string_view>

#include "engine/source/syntax.h"

namespace smallfix::mine {
namespace {

// Above this many child pairs the LCS is not worth it: the run is reported whole.
constexpr size_t kMaxLcsCells = 40000;

std::vector<TSNode> Children(TSNode node) {
  std::vector<TSNode> out;
  const uint32_t count = ts_node_child_count(node);
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_child(node, i);
    if (!IsComment(child)) out.push_back(child);
  }
  return out;
}

class Differ {
 public:
  Differ(const Document& before, const Document& after) : before_(before), after_(after) {}

  bool Same(TSNode b, TSNode a) const {
    return std::string_view(ts_node_type(b)) == ts_node_type(a) &&
           before_.NodeText(b) == after_.NodeText(a);
  }

  void Diff(TSNode b, TSNode a) {
    const std::vector<TSNode> cb = Children(b), ca = Children(a);
    if (cb.empty() || ca.empty()) {
      if (before_.NodeText(b) != after_.NodeText(a)) Emit(b, a, {b}, {a}, TSNode{}, true);
      return;
    }
    size_t lo = 0;
    while (lo < cb.size() && lo < ca.size() && Same(cb[lo], ca[lo])) ++lo;
    size_t hb = cb.size(), ha = ca.size();
    while (hb > lo && ha > lo && Same(cb[hb - 1], ca[ha - 1])) --hb, --ha;
    const size_t n = hb - lo, m = ha - lo;
    if (n == 0 && m == 0) return;
    // Matched index pairs inside [lo, hb) x [lo, ha), by LCS when small enough.
    std::vector<std::pair<size_t, size_t>> matches;
    if (n > 0 && m > 0 && n * m <= kMaxLcsCells) {
      std::vector<std::vector<uint16_t>> len(n + 1, std::vector<uint16_t>(m + 1, 0));
      for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
          len[i][j] = Same(cb[lo + i], ca[lo + j]) ? len[i + 1][j + 1] + 1
                                                   : std::max(len[i + 1][j], len[i][j + 1]);
      for (size_t i = 0, j = 0; i < n && j < m;) {
        if (Same(cb[lo + i], ca[lo + j])) {
          matches.push_back({lo + i, lo + j});
          ++i, ++j;
        } else if (len[i + 1][j] >= len[i][j + 1]) {
          ++i;
        } else {
          ++j;
        }
      }
    }
    matches.push_back({hb, ha});  // sentinel: the end of the unmatched region
    size_t ib = lo, ia = lo;
    for (auto [mb, ma] : matches) {
      Run(b, a, cb, ca, ib, mb, ia, ma);
      ib = mb + 1, ia = ma + 1;
    }
  }

  std::vector<TreeEdit> edits;

 private:
  // The unmatched children cb[ib, eb) and ca[ia, ea).
  void Run(TSNode b, TSNode a, const std::vector<TSNode>& cb, const std::vector<TSNode>& ca,
           size_t ib, size_t eb, size_t ia, size_t ea) {
    if (ib == eb && ia == ea) return;
    const TSNode next = ea < ca.size() ? ca[ea] : TSNode{};
    if (eb - ib == ea - ia) {
      bool same_types = true;
      for (size_t k = 0; k < eb - ib; ++k)
        same_types =
            same_types && std::string_view(ts_node_type(cb[ib + k])) == ts_node_type(ca[ia + k]);
      for (size_t k = 0; k < eb - ib; ++k) {
        if (same_types && ts_node_is_named(cb[ib + k])) {
          Diff(cb[ib + k], ca[ia + k]);
        } else {
          Emit(b, a, {cb[ib + k]}, {ca[ia + k]}, TSNode{}, false);
        }
      }
      return;
    }
    std::vector<TSNode> removed(cb.begin() + ib, cb.begin() + eb),
        inserted(ca.begin() + ia, ca.begin() + ea);
    // An insertion is anchored at the child it precedes (or the parent's end) on each side.
    TreeEdit edit = Make(b, a, removed, inserted, next);
    if (removed.empty()) {
      const TSNode anchor = eb < cb.size() ? cb[eb] : b;
      edit.before_row = edit.before_end_row = static_cast<int>(
          eb < cb.size() ? ts_node_start_point(anchor).row : ts_node_end_point(anchor).row);
    }
    if (inserted.empty()) {
      const TSNode anchor = ea < ca.size() ? ca[ea] : a;
      edit.after_row = edit.after_end_row = static_cast<int>(
          ea < ca.size() ? ts_node_start_point(anchor).row : ts_node_end_point(anchor).row);
    }
    edits.push_back(std::move(edit));
  }

  void Emit(TSNode b, TSNode a, std::vector<TSNode> removed, std::vector<TSNode> inserted,
            TSNode next, bool leaf) {
    if (leaf) {  // b and a are the changed nodes themselves; their parents hold them
      edits.push_back(Make(ts_node_parent(b), ts_node_parent(a), std::move(removed),
                           std::move(inserted), next));
    } else {
      edits.push_back(Make(b, a, std::move(removed), std::move(inserted), next));
    }
  }

  static TreeEdit Make(TSNode b, TSNode a, std::vector<TSNode> removed,
                       std::vector<TSNode> inserted, TSNode next) {
    TreeEdit edit{b, a, std::move(removed), std::move(inserted), next};
    if (!edit.removed.empty()) {
      edit.before_row = static_cast<int>(ts_node_start_point(edit.removed.front()).row);
      edit.before_end_row = static_cast<int>(ts_node_end_point(edit.removed.back()).row);
    }
    if (!edit.inserted.empty()) {
      edit.after_row = static_cast<int>(ts_node_start_point(edit.inserted.front()).row);
      edit.after_end_row = static_cast<int>(ts_node_end_point(edit.inserted.back()).row);
    }
    return edit;
  }

  const Document& before_;
  const Document& after_;
};

}  // namespace

std::vector<TreeEdit> DiffTrees(const Document& before, const Document& after) {
  Differ differ(before, after);
  differ.Diff(before.root(), after.root());
  return std::move(differ.edits);
}

}  // namespace smallfix::mine
