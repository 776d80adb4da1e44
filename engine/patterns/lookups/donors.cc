// Look-ups that copy from similar code elsewhere in the file (the "donor" idea of
// similarity-based repair): code is often written twice, and a fix often makes one copy
// agree with another. `donor-edit` finds statements of the same shape as the site's whose
// tokens differ in one place and offers that place's donor text; `donor-insert` finds a copy
// of the site statement whose neighbours have one statement more and offers it.
#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "engine/base/concat.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"
#include "engine/source/token_alignment.h"

namespace smallfix {
namespace {

// At most this many answers: the closest donors; each is a candidate to validate.
constexpr size_t kMaxDonors = 3;
// Statements longer than this many tokens are not compared (a long call table).
constexpr size_t kMaxTokens = 250;
// A donor statement to insert is at most this many lines (the fixes are small).
constexpr int kMaxInsertedLines = 6;

bool IsCompound(TSNode node) {
  static const std::set<std::string_view>* compound = new std::set<std::string_view>{
      "if_statement",        "for_statement",    "while_statement",
      "try_statement",       "with_statement",   "match_statement",
      "function_definition", "class_definition", "decorated_definition"};
  return compound->contains(ts_node_type(node));
}

// What a statement is, for comparing like with like: its type, and for an expression
// statement what it holds (an assignment, a call, ...).
std::string ShapeOf(TSNode statement) {
  std::string shape = ts_node_type(statement);
  if (IsType(statement, "expression_statement") && ts_node_named_child_count(statement) > 0) {
    shape += Concat("/", ts_node_type(ts_node_named_child(statement, 0)));
  }
  return shape;
}

bool IsAssignOperator(std::string_view t) {
  return !t.empty() && t.back() == '=' && t != "==" && t != "!=" && t != "<=" && t != ">=";
}

// The tokens from `from` up to the first bracket, `=` or comma (at most 6): the callee of a
// call, the target of an assignment, `del x`. Statements compared must share the head of the
// statement or of its assigned value, which bounds the search.
std::string HeadOf(const std::vector<SyntaxToken>& tokens, size_t from = 0) {
  std::string head;
  for (size_t k = from; k < tokens.size() && k < from + 6; ++k) {
    const std::string_view t = tokens[k].text;
    if (t == "(" || t == "[" || t == "," || IsAssignOperator(t)) break;
    head += Concat(t, " ");
  }
  return head;
}

// The head of an assignment's value (`make` in `self.q = make(...)`), "" for other statements.
std::string ValueHeadOf(TSNode statement, const std::vector<SyntaxToken>& tokens) {
  if (!IsType(statement, "expression_statement")) return "";
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].type == "(" || tokens[k].type == "[")
      return "";  // `=` inside a call is a keyword
    if (IsAssignOperator(tokens[k].text)) return HeadOf(tokens, k + 1);
  }
  return "";
}

// The index of an assignment's operator in its tokens (`=`, `+=`), or 0 for other statements.
size_t AssignIndex(TSNode statement, const std::vector<SyntaxToken>& tokens) {
  if (!IsType(statement, "expression_statement")) return 0;
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].type == "(" || tokens[k].type == "[") return 0;
    if (IsAssignOperator(tokens[k].text)) return k;
  }
  return 0;
}

// A dotted head's last name (`apply` of `_Linear . apply `), "" for a head of one token.
std::string_view MethodOf(std::string_view head) {
  if (head.find(" . ") == std::string_view::npos || head.size() < 2) return "";
  head.remove_suffix(1);
  return head.substr(head.rfind(' ') + 1);
}

// Whether two statements share the head of the statement or of the value they assign, or
// call a method of one name (`_Linear.apply(...)` and `_LayerNormLinear.apply(...)`, sibling
// calls whose arguments line up).
bool SameHead(TSNode a, const std::vector<SyntaxToken>& a_tokens, TSNode b,
              const std::vector<SyntaxToken>& b_tokens) {
  const std::string a_head = HeadOf(a_tokens), b_head = HeadOf(b_tokens);
  const std::string a_value = ValueHeadOf(a, a_tokens), b_value = ValueHeadOf(b, b_tokens);
  if (a_head == b_head || (!a_value.empty() && a_value == b_value)) return true;
  const std::string_view method = MethodOf(a_value.empty() ? a_head : a_value);
  return !method.empty() && method == MethodOf(b_value.empty() ? b_head : b_value);
}

// The simple statements of the module (no compound ones), in source order. By recursion from
// the module through blocks, so no node asks for its parent (a walk from the root each).
void CollectSimpleStatements(TSNode node, std::vector<TSNode>& out) {
  const bool holds_statements = IsType(node, "module") || IsType(node, "block");
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    const TSNode child = ts_node_named_child(node, i);
    if (IsComment(child)) continue;
    if (holds_statements && !IsCompound(child)) {
      out.push_back(child);
    } else if (holds_statements || IsCompound(child) || IsType(child, "block") ||
               std::string_view(ts_node_type(child)).ends_with("_clause")) {
      CollectSimpleStatements(child, out);  // a compound statement's blocks and clauses
    }
  }
}

std::vector<TSNode> SimpleStatements(TSNode root) {
  std::vector<TSNode> out;
  CollectSimpleStatements(root, out);
  return out;
}

// The names the code of `node` between bytes [start, end) reads: identifiers not after a dot
// (an attribute) and not before `=` (a keyword argument or an assignment target).
std::vector<std::string> NamesRead(const Document& document, TSNode node, uint32_t start,
                                   uint32_t end) {
  const std::vector<SyntaxToken> tokens = TokensOf(document, node, kMaxTokens);
  std::vector<std::string> names;
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].start < start || tokens[k].end > end || tokens[k].type != "identifier") continue;
    if (k > 0 && tokens[k - 1].text == ".") continue;
    if (k + 1 < tokens.size() && tokens[k + 1].text == "=") continue;
    names.push_back(tokens[k].text);
  }
  return names;
}

// The names bound in the function (or module) at `byte`, as a set to test many names.
std::set<std::string, std::less<>> ScopeAt(const Document& document, size_t byte) {
  std::set<std::string, std::less<>> names;
  for (const ScopeName& name : NamesInScope(document, byte)) names.insert(name.name);
  return names;
}

bool AllInScope(const std::vector<std::string>& names,
                const std::set<std::string, std::less<>>& scope) {
  return std::all_of(names.begin(), names.end(),
                     [&](const std::string& name) { return scope.contains(name); });
}

int LineOf(const Document& document, uint32_t byte) {
  return document.lines().ToPosition(byte).line;
}

// Whether two token sequences are near copies: at most a quarter of the longer differs (one
// token in a short one: `return None` and `return out`).
bool NearCopy(const std::vector<SyntaxToken>& a, const std::vector<SyntaxToken>& b) {
  if (a.empty() || b.empty()) return false;
  const size_t longer = std::max(a.size(), b.size());
  const size_t bound = std::max<size_t>(1, longer / 4);
  if (longer - std::min(a.size(), b.size()) > bound) return false;
  return AlignTokens(a, b).distance <= bound;
}

struct DonorEdit {
  double distance;  // token distance over the longer statement's length
  int lines_away;
  TSNode site_node;
  std::string code;
  int donor_line;  // 1-based
};

// The smallest named node of `statement` that covers site tokens [begin, end) (for an empty
// span, the token before it), and the tokens it spans.
std::optional<std::tuple<TSNode, size_t, size_t>> CoveringNode(
    TSNode statement, const std::vector<SyntaxToken>& tokens, size_t begin, size_t end) {
  size_t first = begin, last = end;  // token span [first, last)
  if (first == last) {
    // An insertion: around the token before it (`x` -> `x, top_p=0.9` in an argument list),
    // so the rest of the enclosing node need not match.
    if (first == 0) return std::nullopt;
    --first;
  }
  const uint32_t start = tokens[first].start, stop = tokens[last - 1].end;
  TSNode node = ts_node_named_descendant_for_byte_range(statement, start, stop);
  while (!ts_node_is_null(node) &&
         (ts_node_start_byte(node) > start || ts_node_end_byte(node) < stop)) {
    node = ts_node_parent(node);
  }
  if (ts_node_is_null(node)) return std::nullopt;
  size_t a = first, b = last;
  while (a > 0 && tokens[a - 1].start >= ts_node_start_byte(node)) --a;
  while (b < tokens.size() && tokens[b].end <= ts_node_end_byte(node)) ++b;
  return std::make_tuple(node, a, b);
}

// Whether the tokens of the covering node [a, b) around `region` other than the region's
// own are matched one for one: else the node holds another difference too.
bool MatchedAround(const TokenAlignment& alignment, const TokenRegion& region, size_t a, size_t b) {
  for (size_t k = a; k < region.a_begin; ++k) {
    if (alignment.match_of_a[k] !=
        static_cast<int>(region.b_begin) - static_cast<int>(region.a_begin - k)) {
      return false;
    }
  }
  for (size_t k = region.a_end; k < b; ++k) {
    if (alignment.match_of_a[k] != static_cast<int>(region.b_end + (k - region.a_end))) {
      return false;
    }
  }
  return true;
}

// Binds up to kMaxDonors of `edits`, nearest donors first, one per site node and text: the
// first in `state`, the others appended to `more`.
absl::Status BindNearestEdits(std::vector<DonorEdit> edits, const Document& document,
                              MatchState& state, std::vector<MatchState>& more) {
  std::stable_sort(edits.begin(), edits.end(), [](const DonorEdit& x, const DonorEdit& y) {
    return std::tie(x.distance, x.lines_away) < std::tie(y.distance, y.lines_away);
  });
  std::vector<MatchState> answers;
  std::set<std::tuple<uint32_t, uint32_t, std::string>> seen;
  for (const DonorEdit& edit : edits) {
    if (answers.size() == kMaxDonors) break;
    if (!seen.emplace(ts_node_start_byte(edit.site_node), ts_node_end_byte(edit.site_node),
                      edit.code)
             .second) {
      continue;
    }
    MatchState& answer = answers.emplace_back(state);
    answer.nodes["donor_site"] = edit.site_node;
    answer.bindings["donor_site"] = std::string(document.NodeText(edit.site_node));
    answer.bindings["donor_code"] = edit.code;
    answer.bindings["donor_line"] = std::to_string(edit.donor_line);
  }
  if (answers.empty()) return LookupFails("no statement of the file is a near copy of the site's");
  state = answers.front();
  for (size_t i = 1; i < answers.size(); ++i) more.push_back(std::move(answers[i]));
  return absl::OkStatus();
}

}  // namespace

absl::Status DonorEditLookup(const LookupArgs&, const MatchContext&, MatchState& state,
                             std::vector<MatchState>& more) {
  const Document& document = *state.document;
  const TSNode site = state.statement;
  if (IsCompound(site)) return LookupFails("the site is a compound statement");
  const std::vector<SyntaxToken> site_tokens = TokensOf(document, site, kMaxTokens, true);
  if (site_tokens.size() < 2)
    return LookupFails("the site statement is too short or too long to compare");
  const std::string shape = ShapeOf(site);
  // Another target is another statement, not a fix of this one: only the value may change.
  const size_t assign = AssignIndex(site, site_tokens);
  // The fault line: on a statement of several lines, only a difference on it is the fix.
  int fault_line = LineOf(document, ts_node_start_byte(site));
  if (auto it = state.bindings.find("line"); it != state.bindings.end()) {
    fault_line = std::atoi(it->second.c_str()) - 1;
  }
  const int site_line = LineOf(document, ts_node_start_byte(site));
  std::optional<std::set<std::string, std::less<>>> scope;  // computed when first needed
  std::vector<DonorEdit> edits;
  for (TSNode donor : SimpleStatements(document.root())) {
    if (ts_node_eq(donor, site) || ShapeOf(donor) != shape) continue;
    const std::vector<SyntaxToken> donor_tokens = TokensOf(document, donor, kMaxTokens, true);
    if (donor_tokens.empty() || !SameHead(site, site_tokens, donor, donor_tokens)) continue;
    // Too far apart by length alone for a near copy, and longer than a one-token change
    // allows: skip the alignment.
    const size_t n = site_tokens.size(), m = donor_tokens.size();
    if (n > m + 1 && (n - m) * 10 > 4 * std::max(n, m) && n - m > 2) continue;
    const TokenAlignment alignment = AlignTokens(site_tokens, donor_tokens);
    if (alignment.distance == 0) continue;
    const std::vector<TokenRegion> regions = DifferingRegions(alignment, donor_tokens.size());
    const size_t longer = std::max(site_tokens.size(), donor_tokens.size());
    const double distance = static_cast<double>(alignment.distance) / static_cast<double>(longer);
    for (const TokenRegion& region : regions) {
      // A near copy (at most 40% differs, or two tokens), or one token of the site that the
      // donor writes as an expression (`x = False` where a copy computes x).
      const bool near = distance <= 0.4 || alignment.distance <= 2;
      const bool one_token = regions.size() == 1 && region.a_end - region.a_begin <= 1;
      if ((!near && !one_token) || region.a_begin < assign) continue;
      std::optional<std::tuple<TSNode, size_t, size_t>> covering =
          CoveringNode(site, site_tokens, region.a_begin, region.a_end);
      if (!covering) continue;
      const auto [node, a, b] = *covering;
      if (!MatchedAround(alignment, region, a, b)) continue;
      const size_t donor_begin = region.b_begin - (region.a_begin - a);
      const size_t donor_end = region.b_end + (b - region.a_end);
      // The difference must touch the fault line.
      const uint32_t from = region.a_begin < region.a_end ? site_tokens[region.a_begin].start
                                                          : site_tokens[region.a_begin - 1].end;
      const uint32_t to = region.a_begin < region.a_end ? site_tokens[region.a_end - 1].end : from;
      if (LineOf(document, from) > fault_line || LineOf(document, to) < fault_line) continue;
      // Names the donor's text reads must be bound at the site (no renaming yet).
      if (!scope) scope = ScopeAt(document, ts_node_start_byte(site));
      if (region.b_begin < region.b_end &&
          !AllInScope(NamesRead(document, donor, donor_tokens[region.b_begin].start,
                                donor_tokens[region.b_end - 1].end),
                      *scope)) {
        continue;
      }
      const int donor_line = LineOf(document, ts_node_start_byte(donor));
      edits.push_back({distance, std::abs(donor_line - site_line), node,
                       JoinTokens(document, donor_tokens, donor_begin, donor_end), donor_line + 1});
    }
  }
  return BindNearestEdits(std::move(edits), document, state, more);
}

namespace {

// The named sibling statement before or after `statement` in its block, comments skipped.
std::optional<TSNode> Neighbour(TSNode statement, bool after) {
  TSNode node = statement;
  for (;;) {
    node = after ? ts_node_next_named_sibling(node) : ts_node_prev_named_sibling(node);
    if (ts_node_is_null(node)) return std::nullopt;
    if (!IsComment(node)) return node;
  }
}

struct DonorInsert {
  size_t anchor_distance;
  int lines_away;
  std::string code;
  int donor_line;  // 1-based
};

}  // namespace

absl::Status DonorInsertLookup(const LookupArgs& args, const MatchContext&, MatchState& state,
                               std::vector<MatchState>& more) {
  const std::string side = LookupArg(args, "side");
  if (side != "before" && side != "after")
    return LookupFails("donor-insert takes side: before or after");
  const bool after = side == "after";
  const Document& document = *state.document;
  const TSNode site = state.statement;
  if (IsCompound(site)) return LookupFails("the site is a compound statement");
  const std::vector<SyntaxToken> site_tokens = TokensOf(document, site, kMaxTokens, true);
  if (site_tokens.empty()) return LookupFails("the site statement is too long to compare");
  const std::string shape = ShapeOf(site);
  const std::optional<TSNode> site_next = Neighbour(site, after);
  const std::vector<SyntaxToken> site_next_tokens =
      site_next ? TokensOf(document, *site_next, kMaxTokens, true) : std::vector<SyntaxToken>{};
  // The statements of the site's block: a donor statement already there is no gap.
  std::vector<std::vector<SyntaxToken>> block;
  const TSNode parent = ts_node_parent(site);
  for (TSNode child : NamedChildrenSkippingComments(parent))
    block.push_back(TokensOf(document, child, kMaxTokens, true));
  auto in_block = [&](const std::vector<SyntaxToken>& tokens) {
    return std::any_of(block.begin(), block.end(), [&](const std::vector<SyntaxToken>& other) {
      return !other.empty() && AlignTokens(tokens, other).distance == 0;
    });
  };
  const int site_line = LineOf(document, ts_node_start_byte(site));
  const uint32_t at = after ? ts_node_end_byte(site) : ts_node_start_byte(site);
  std::optional<std::set<std::string, std::less<>>> scope;
  std::vector<DonorInsert> inserts;
  for (TSNode anchor : SimpleStatements(document.root())) {
    if (ts_node_eq(anchor, site) || ShapeOf(anchor) != shape) continue;
    const std::vector<SyntaxToken> anchor_tokens = TokensOf(document, anchor, kMaxTokens, true);
    if (anchor_tokens.empty() || !SameHead(site, site_tokens, anchor, anchor_tokens) ||
        !NearCopy(site_tokens, anchor_tokens)) {
      continue;
    }
    // The donor has one statement more on this side, and then what the site has there
    // (both blocks end here, or the next statements are near copies).
    const std::optional<TSNode> extra = Neighbour(anchor, after);
    if (!extra) continue;
    const std::optional<TSNode> beyond = Neighbour(*extra, after);
    if (site_next.has_value() != beyond.has_value()) continue;
    if (site_next && !NearCopy(site_next_tokens, TokensOf(document, *beyond, kMaxTokens, true)))
      continue;
    // Both blocks ending there is weaker evidence: then the anchors must be equal.
    const size_t anchor_distance = AlignTokens(site_tokens, anchor_tokens).distance;
    if (!site_next && anchor_distance > 0) continue;
    const int first = LineOf(document, ts_node_start_byte(*extra));
    const int last = LineOf(document, ts_node_end_byte(*extra));
    if (last - first + 1 > kMaxInsertedLines) continue;
    const std::vector<SyntaxToken> extra_tokens = TokensOf(document, *extra, kMaxTokens, true);
    if (extra_tokens.empty() || in_block(extra_tokens)) continue;
    if (!scope) scope = ScopeAt(document, at);
    if (!AllInScope(
            NamesRead(document, *extra, ts_node_start_byte(*extra), ts_node_end_byte(*extra)),
            *scope)) {
      continue;
    }
    // The donor's text at its own indentation; the action lays it out at the site's.
    std::string code = Concat(LeadingWhitespace(document, first), document.NodeText(*extra));
    inserts.push_back({anchor_distance, std::abs(first - site_line), std::move(code), first + 1});
  }
  std::stable_sort(inserts.begin(), inserts.end(), [](const DonorInsert& x, const DonorInsert& y) {
    return std::tie(x.anchor_distance, x.lines_away) < std::tie(y.anchor_distance, y.lines_away);
  });
  std::vector<std::string> codes, lines;
  for (const DonorInsert& insert : inserts) {
    if (codes.size() == kMaxDonors) break;
    if (std::find(codes.begin(), codes.end(), insert.code) != codes.end()) continue;
    codes.push_back(insert.code);
    lines.push_back(std::to_string(insert.donor_line));
  }
  return BindEachPair(
      {"donor_statement", "donor_line"},
      [&] {
        std::vector<std::pair<std::string, std::string>> pairs;
        for (size_t i = 0; i < codes.size(); ++i) pairs.emplace_back(codes[i], lines[i]);
        return pairs;
      }(),
      state, more, Concat("no copy of the site statement has one more statement ", side, " it"));
}

}  // namespace smallfix
