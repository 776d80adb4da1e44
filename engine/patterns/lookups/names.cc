// Look-ups that offer alternatives: another operator or keyword, the integers next to one,
// the names in scope nearest to a name, the sibling methods of a receiver. Each may answer several
// times (one match per answer), nearest first.
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "engine/base/concat.h"
#include "engine/base/edit_distance.h"
#include "engine/base/status_macros.h"
#include "engine/index/scope.h"
#include "engine/patterns/lookups/helpers.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// At most this many answers per look-up: the nearest names are the likely slips, and each
// answer is a candidate to validate.
constexpr size_t kMaxAnswers = 3;

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// "is  not" and "is not" are one operator.
std::string CollapseSpaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool IsCapitalized(std::string_view name) {
  return !name.empty() && name[0] >= 'A' && name[0] <= 'Z';
}

// The `limit` closest of `names` to `name`, closest first (ties: the order given); with
// `proximity` (distance from the site to each name's nearest use), see below.
std::vector<std::string> Nearest(
    std::string_view name, const std::vector<std::string>& names,
    const std::map<std::string, size_t, std::less<>>* proximity = nullptr) {
  std::vector<std::pair<size_t, std::string>> scored;
  std::set<std::string, std::less<>> seen;
  for (const std::string& candidate : names) {
    if (!seen.insert(candidate).second) continue;
    // A class for a class, a value for a value.
    if (IsCapitalized(candidate) != IsCapitalized(name)) continue;
    if (std::optional<size_t> closeness = NameCloseness(name, candidate)) {
      scored.emplace_back(*closeness, candidate);
    }
  }
  auto near = [&](const std::string& candidate) -> size_t {
    if (proximity == nullptr) return 0;
    auto it = proximity->find(candidate);
    return it == proximity->end() ? SIZE_MAX : it->second;
  };
  // With proximity: a near-typo first, then names sharing a word, then the rest; within each,
  // the name used nearest the site (ln_weight and fc2_weight are both one word off `weight`;
  // the fc2 branch means fc2_weight).
  const std::vector<std::string> words = Split(name, '_');
  auto bucket = [&](const std::pair<size_t, std::string>& entry) -> size_t {
    if (proximity == nullptr) return entry.first;
    if (entry.first <= 2) return 0;
    const std::vector<std::string> other = Split(entry.second, '_');
    const bool shared = std::any_of(words.begin(), words.end(), [&](const std::string& word) {
      return std::find(other.begin(), other.end(), word) != other.end();
    });
    return shared ? 1 : 2;
  };
  std::stable_sort(scored.begin(), scored.end(), [&](const auto& a, const auto& b) {
    if (bucket(a) != bucket(b)) return bucket(a) < bucket(b);
    if (near(a.second) != near(b.second)) return near(a.second) < near(b.second);
    return a.first < b.first;
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < kMaxAnswers; ++i) out.push_back(scored[i].second);
  return out;
}

// For each identifier in the def around `at` (the module outside defs), the distance in
// bytes from `at` to its nearest occurrence: of two names equally close in spelling, the
// one the code around the site uses is the likelier (fc2_weight in the fc2 branch).
std::map<std::string, size_t, std::less<>> Proximity(const Document& document, TSNode at) {
  std::map<std::string, size_t, std::less<>> out;
  std::optional<TSNode> def = EnclosingOfType(at, {"function_definition"});
  const size_t site = ts_node_start_byte(at);
  WalkTree(def ? *def : document.root(), [&](TSNode node) {
    if (IsType(node, "identifier")) {
      const size_t start = ts_node_start_byte(node);
      const size_t distance = start > site ? start - site : site - start;
      auto [it, inserted] = out.emplace(std::string(document.NodeText(node)), distance);
      if (!inserted) it->second = std::min(it->second, distance);
    }
    return Walk::kDescend;
  });
  return out;
}

// The attribute names read on `receiver` (its exact text) anywhere in the document.
std::vector<std::string> AttributesOf(const Document& document, std::string_view receiver) {
  std::vector<std::string> names;
  WalkTree(document.root(), [&](TSNode node) {
    if (IsType(node, "attribute")) {
      TSNode object = ts_node_child_by_field_name(node, "object", 6);
      if (document.NodeText(object) == receiver) {
        names.emplace_back(document.NodeText(ts_node_child_by_field_name(node, "attribute", 9)));
      }
    }
    return Walk::kDescend;
  });
  return names;
}

// An f-string with `{...}` in it: not a constant to swap in.
bool HasInterpolation(TSNode node) {
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    if (IsType(ts_node_named_child(node, i), "interpolation")) return true;
  }
  return false;
}

}  // namespace

std::optional<size_t> NameCloseness(std::string_view name, std::string_view candidate) {
  if (name == candidate || name.empty() || candidate.empty()) return std::nullopt;
  const size_t distance = EditDistance(name, candidate);
  const std::vector<std::string> a = Split(name, '_'), b = Split(candidate, '_');
  size_t shared = 0;
  for (const std::string& word : a) shared += std::count(b.begin(), b.end(), word) > 0;
  const bool typo = distance <= std::max<size_t>(1, std::min(name.size(), candidate.size()) / 3);
  // tp_rank / tp_size, grad_norm / grad_norms, get / get_all: a word in common, or one name
  // within the other.
  const bool sibling = shared > 0 || candidate.starts_with(name) || name.starts_with(candidate);
  if (!typo && !sibling) return std::nullopt;
  return distance + (shared > 0 ? 0 : 8) + (typo ? 0 : 4);
}

absl::Status OneOf(const LookupArgs& args, const MatchContext&, MatchState& state,
                   std::vector<MatchState>& more) {
  const std::string value = CollapseSpaces(LookupArg(args, "value"));
  std::vector<std::string> others;
  for (const std::string& option : Split(LookupArg(args, "among"), '|')) {
    if (CollapseSpaces(option) != value) others.push_back(option);
  }
  return BindEach("alternative", others, state, more, Concat("no alternative to `", value, "`"));
}

absl::Status NearestWord(const LookupArgs& args, const MatchContext&, MatchState& state,
                         std::vector<MatchState>& more) {
  const std::string value = LookupArg(args, "value");
  // A slip of the keyboard: at most two edits, and fewer than a third of the word.
  const size_t bound = std::min<size_t>(2, std::max<size_t>(1, value.size() / 3));
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& word : Split(LookupArg(args, "among"), '|')) {
    if (word == value) return LookupFails(Concat("`", value, "` is itself one of the words"));
    const size_t distance = EditDistance(value, word);
    if (distance <= bound) scored.emplace_back(distance, word);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> words;
  for (size_t i = 0; i < scored.size() && i < kMaxAnswers; ++i) words.push_back(scored[i].second);
  return BindEach("alternative", words, state, more,
                  Concat("no word is a typo away from `", value, "`"));
}

absl::Status IntegerNeighbours(const LookupArgs& args, const MatchContext&, MatchState& state,
                               std::vector<MatchState>& more) {
  const std::string value = LookupArg(args, "value");
  long long number = 0;
  if (!absl::SimpleAtoi(value, &number) || value.size() > 12) {
    return LookupFails(Concat("`", value, "` is not a small integer"));
  }
  return BindEach("alternative", {std::to_string(number - 1), std::to_string(number + 1)}, state,
                  more, "");
}

absl::Status NearbyLiteral(const LookupArgs& args, const MatchContext&, MatchState& state,
                           std::vector<MatchState>& more) {
  SMALLFIX_ASSIGN_OR_RETURN(TSNode captured, CaptureNode(args, "literal", state));
  const Document& document = *state.document;
  const TSNode literal = captured;
  const std::string_view type = ts_node_type(literal);
  const std::string_view text = document.NodeText(literal);
  std::optional<TSNode> def = EnclosingOfType(literal, {"function_definition"});
  std::vector<std::pair<size_t, std::string>> found;
  std::set<std::string, std::less<>> seen = {std::string(text)};
  auto collect = [&](TSNode scope) {
    WalkTree(scope, [&](TSNode node) {
      if (ts_node_type(node) == type && !HasInterpolation(node)) {
        std::string other(document.NodeText(node));
        if (other.size() <= 80 && other.find('\n') == std::string::npos &&
            seen.insert(other).second) {
          found.emplace_back(EditDistance(text, other), std::move(other));
        }
      }
      return Walk::kDescend;
    });
  };
  if (def) collect(*def);
  if (found.empty()) collect(document.root());
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> values;
  for (size_t i = 0; i < found.size() && i < kMaxAnswers; ++i) values.push_back(found[i].second);
  return BindEach("alternative", values, state, more, Concat("no other ", type, " literal nearby"));
}

absl::Status NearestName(const LookupArgs& args, const MatchContext&, MatchState& state,
                         std::vector<MatchState>& more) {
  const std::string name = LookupArg(args, "name");
  const Document& document = *state.document;
  std::vector<std::string> names;
  const size_t dot = name.rfind('.');
  if (dot != std::string::npos) {
    // `self.a` -> `self.b`, `args.lr` -> `args.min_lr`: another attribute of the same
    // receiver, compared by the attribute's name.
    const std::string receiver = name.substr(0, dot);
    std::vector<std::string> attributes = AttributesOf(document, receiver);
    for (const ScopeName& scoped : NamesInScope(document, ts_node_start_byte(state.statement))) {
      if (scoped.kind == ScopeName::Kind::kAttribute && scoped.name.starts_with(receiver + ".")) {
        attributes.push_back(scoped.name.substr(receiver.size() + 1));
      }
    }
    for (const std::string& attribute : Nearest(name.substr(dot + 1), attributes)) {
      names.push_back(Concat(receiver, ".", attribute));
    }
  } else {
    std::vector<std::string> scope;
    for (const ScopeName& scoped : NamesInScope(document, ts_node_start_byte(state.statement))) {
      switch (scoped.kind) {
        case ScopeName::Kind::kParameter:
        case ScopeName::Kind::kLocal:
        case ScopeName::Kind::kLoopVariable:
        case ScopeName::Kind::kGlobal:
          scope.push_back(scoped.name);
          break;
        default:
          break;  // imports, builtins and attributes are not values of the same kind
      }
    }
    const std::map<std::string, size_t, std::less<>> proximity =
        Proximity(document, state.statement);
    names = Nearest(name, scope, &proximity);
  }
  return BindEach("nearest", names, state, more, Concat("no name in scope is near `", name, "`"));
}

absl::Status FallbackName(const LookupArgs& args, const MatchContext&, MatchState& state,
                          std::vector<MatchState>& more) {
  const std::string name = LookupArg(args, "name");
  const size_t dot = name.rfind('.');
  const std::string bare = dot == std::string::npos ? name : name.substr(dot + 1);
  // What a module offers to stand in for a missing value: its imports and its own
  // top-level defs and constants, never a local (that is a value of this call, not a default).
  std::vector<std::pair<size_t, std::string>> scored;
  std::set<std::string, std::less<>> seen;
  for (const ScopeName& scoped :
       NamesInScope(*state.document, ts_node_start_byte(state.statement))) {
    if (scoped.kind != ScopeName::Kind::kImport && scoped.kind != ScopeName::Kind::kGlobal)
      continue;
    if (scoped.name == bare || !seen.insert(scoped.name).second) continue;
    const std::vector<std::string> a = Split(absl::AsciiStrToLower(bare), '_'),
                                   b = Split(absl::AsciiStrToLower(scoped.name), '_');
    const bool shared = std::any_of(a.begin(), a.end(), [&](const std::string& word) {
      return word.size() > 2 && std::count(b.begin(), b.end(), word) > 0;
    });
    if (!shared) continue;
    // default_collate, DEFAULT_TIMEOUT: a name that says it is the default comes first.
    const bool says_default =
        std::any_of(b.begin(), b.end(), [](const std::string& word) { return word == "default"; });
    scored.emplace_back((says_default ? 0 : 100) + EditDistance(bare, scoped.name), scoped.name);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (size_t i = 0; i < scored.size() && i < kMaxAnswers; ++i) names.push_back(scored[i].second);
  return BindEach("fallback", names, state, more,
                  Concat("no imported or module-level name shares a word with `", bare, "`"));
}

absl::Status SiblingMethod(const LookupArgs& args, const MatchContext&, MatchState& state,
                           std::vector<MatchState>& more) {
  const std::string receiver = LookupArg(args, "receiver");
  const std::string method = LookupArg(args, "method");
  const Document& document = *state.document;
  // What else the code calls or reads on this receiver...
  std::vector<std::string> names = AttributesOf(document, receiver);
  // ... and, on self or cls, the methods its class defines.
  if (receiver == "self" || receiver == "cls") {
    std::optional<TSNode> def = EnclosingOfType(state.statement, {"function_definition"});
    TSNode cls = def ? ClassOfMethod(*def) : TSNode{};
    if (!ts_node_is_null(cls)) {
      TSNode body = ts_node_child_by_field_name(cls, "body", 4);
      for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
        TSNode child = ts_node_named_child(body, i);
        if (IsType(child, "decorated_definition"))
          child = ts_node_child_by_field_name(child, "definition", 10);
        if (IsType(child, "function_definition")) {
          names.emplace_back(document.NodeText(ts_node_child_by_field_name(child, "name", 4)));
        }
      }
    }
  }
  return BindEach("sibling", Nearest(method, names), state, more,
                  Concat("no other method of `", receiver, "` is near `", method, "`"));
}

}  // namespace smallfix
