#include <re2/re2.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/patterns/match.h"
#include "engine/patterns/new_defects.h"
#include "engine/patterns/rewriter.h"
#include "engine/source/edit.h"
#include "engine/source/syntax.h"

namespace smallfix {
namespace {

// The symptom score of a candidate whose type-only symptom the failing run's facts confirmed.
constexpr double kFactConfirmedScore = 0.9;

// "torch.cuda.OutOfMemoryError" and "OutOfMemoryError" name one exception.
bool SameType(std::string_view a, std::string_view b) {
  auto last = [](std::string_view s) {
    const size_t dot = s.rfind('.');
    return dot == std::string_view::npos ? s : s.substr(dot + 1);
  };
  return last(a) == last(b);
}

// How well one of the template's symptoms matches the failure (1 with the message regex,
// less with only the type or class), binding the message regex's named groups; nullopt when
// none does. A generic template (no symptoms) matches any failure with 0: it ranks after
// every template whose symptom matched.
std::optional<double> MatchSymptom(const Template& t, const Symptom& input, Bindings& bindings) {
  if (t.symptoms.empty()) return 0.0;
  std::optional<double> best;
  for (const Template::Symptom& symptom : t.symptoms) {
    if (!symptom.type.empty() && !SameType(symptom.type, input.exception_type)) continue;
    if (!symptom.symptom_class.empty() && symptom.symptom_class != input.symptom_class) continue;
    Bindings groups;
    if (symptom.message) {
      const RE2& regex = *symptom.message;
      const int n = regex.NumberOfCapturingGroups();
      std::vector<re2::StringPiece> pieces(n + 1);
      if (!regex.Match(input.message, 0, input.message.size(), RE2::UNANCHORED, pieces.data(),
                       n + 1)) {
        continue;
      }
      for (const auto& [name, index] : regex.NamedCapturingGroups()) {
        groups[name] = std::string(pieces[index].data(), pieces[index].size());
      }
    }
    const double score = symptom.message ? 1.0 : !symptom.type.empty() ? 0.8 : 0.7;
    if (!best || score > *best) {
      best = score;
      for (auto& [name, value] : groups) bindings[name] = value;
    }
  }
  return best;
}

bool Inside(TSNode node, std::string_view types_text) {
  std::set<std::string, std::less<>> types;
  for (size_t start = 0; start <= types_text.size();) {
    size_t end = types_text.find('|', start);
    if (end == std::string_view::npos) end = types_text.size();
    types.emplace(types_text.substr(start, end - start));
    start = end + 1;
  }
  // Stop at the enclosing def: `continue` needs a loop in the same function.
  for (TSNode n = ts_node_parent(node); !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (types.contains(ts_node_type(n))) return true;
    if (IsType(n, "function_definition") && !types.contains("function_definition")) return false;
  }
  return false;
}

// A `matches` regex's named groups become placeholders (`(?P<name>\\w+)\\(\\)` binds {name}).
void BindNamedGroups(const RE2& re, std::string_view text, MatchState& state) {
  if (re.NumberOfCapturingGroups() <= 0 || re.NamedCapturingGroups().empty()) return;
  std::vector<re2::StringPiece> groups(re.NumberOfCapturingGroups() + 1);
  if (!re.Match(text, 0, text.size(), RE2::UNANCHORED, groups.data(),
                static_cast<int>(groups.size())))
    return;
  for (const auto& [name, index] : re.NamedCapturingGroups()) {
    state.bindings[name] = std::string(groups[index].data(), groups[index].size());
  }
}

absl::Status CheckCondition(const Template::Condition& condition, MatchState& state) {
  using Kind = Template::Condition::Kind;
  if (condition.kind == Kind::kInside || condition.kind == Kind::kNotInside) {
    const bool inside = Inside(state.statement, condition.value);
    if (inside != (condition.kind == Kind::kInside)) {
      return absl::NotFoundError(
          Concat("the site is ", inside ? "" : "not ", "inside ", condition.value));
    }
    return absl::OkStatus();
  }
  auto it = state.bindings.find(condition.capture);
  const std::string text = it == state.bindings.end() ? "" : it->second;
  SMALLFIX_ASSIGN_OR_RETURN(std::string value, Expand(condition.value, state.bindings));
  bool holds = false;
  switch (condition.kind) {
    case Kind::kEquals:
      holds = text == value;
      break;
    case Kind::kNotEquals:
      holds = text != value;
      break;
    case Kind::kMatches: {
      const RE2 re(value, RE2::Quiet);
      holds = RE2::PartialMatch(text, re);
      if (holds) BindNamedGroups(re, text, state);
      break;
    }
    case Kind::kNotMatches:
      holds = !RE2::PartialMatch(text, RE2(value, RE2::Quiet));
      break;
    default:
      break;
  }
  if (!holds) {
    return absl::NotFoundError(
        absl::StrFormat("where (line %d): @%s is `%s`", condition.line, condition.capture, text));
  }
  return absl::OkStatus();
}

// Where a compound statement's header ends: the start of its first block (0 when none).
size_t HeaderEnd(TSNode statement) {
  for (uint32_t i = 0; i < ts_node_child_count(statement); ++i) {
    TSNode child = ts_node_child(statement, i);
    if (IsType(child, "block")) return ts_node_start_byte(child);
  }
  return 0;
}

// The node the query runs over, and the byte range its matches must touch.
struct Scope {
  TSNode node;
  size_t start;
  size_t end;
};

Scope QueryScope(const Template& t, const Document& document, TSNode statement, int line) {
  const size_t line_start = document.lines().LineStart(line);
  const size_t line_end = document.lines().LineEnd(line);
  if (t.scope == "module") return {document.root(), 0, document.text().size()};
  if (t.scope == "function") {
    std::optional<TSNode> def = EnclosingOfType(statement, {"function_definition"});
    TSNode node = def ? *def : document.root();
    return {node, ts_node_start_byte(node), ts_node_end_byte(node)};
  }
  if (t.scope == "loop") {
    // The innermost loop of the same function around the fault line, matched from its header
    // only, so that a loop nested in its body is not matched for it. No loop: no match.
    std::optional<TSNode> loop = EnclosingOfType(
        statement, {"for_statement", "while_statement", "function_definition", "class_definition"});
    if (!loop || !(IsType(*loop, "for_statement") || IsType(*loop, "while_statement"))) {
      return {TSNode{}, 0, 0};
    }
    return {*loop, ts_node_start_byte(*loop), HeaderEnd(*loop)};
  }
  // A simple statement counts whole (a call spanning lines); a compound one only from the
  // fault line to the end of its header (a condition in parentheses over several lines),
  // not its body.
  const bool compound = ts_node_child_by_field_name(statement, "body", 4).id != nullptr ||
                        IsType(statement, "if_statement") || IsType(statement, "try_statement") ||
                        IsType(statement, "with_statement") ||
                        IsType(statement, "decorated_definition");
  if (compound) return {statement, line_start, std::max(line_end, HeaderEnd(statement))};
  return {statement, ts_node_start_byte(statement), ts_node_end_byte(statement)};
}

// Runs the template's look-ups over the match's state, in order. A look-up with several
// answers forks the state; a look-up that does not hold drops it.
std::vector<MatchState> RunLookups(const Template& t, MatchState initial,
                                   const MatchContext& context,
                                   const std::function<void(std::string)>& note) {
  std::vector<MatchState> states;
  states.push_back(std::move(initial));
  for (const Template::Lookup& lookup : t.lookups) {
    std::vector<MatchState> next;
    for (MatchState& state : states) {
      LookupArgs args;
      absl::Status status;
      for (const auto& [key, value] : lookup.args) {
        absl::StatusOr<std::string> expanded = Expand(value, state.bindings);
        if (!expanded.ok()) {
          status = expanded.status();
          break;
        }
        args[key] = *expanded;
      }
      std::vector<MatchState> more;
      if (status.ok()) status = lookup.spec->run(args, context, state, more);
      if (!status.ok()) {
        note(std::string(status.message()));
        continue;
      }
      next.push_back(std::move(state));
      for (MatchState& other : more) next.push_back(std::move(other));
    }
    states = std::move(next);
  }
  return states;
}

// The bytes of the top-level statements (defs, classes, ...) that the edits touch, from the
// start of the first one's line; nullopt when an edit lies outside them.
std::optional<std::pair<size_t, size_t>> TopLevelRegion(const Document& document,
                                                        const EditSet& edits) {
  const size_t lo = edits.edits().front().start;
  size_t hi = 0;
  for (const Edit& edit : edits.edits()) hi = std::max(hi, edit.end);
  const TSNode root = document.root();
  std::optional<size_t> start, end;
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode child = ts_node_named_child(root, i);
    if (!start && ts_node_end_byte(child) >= lo) {
      start = document.lines().LineStart(document.NodeStart(child).line);
    }
    if (ts_node_start_byte(child) <= hi) end = ts_node_end_byte(child);
  }
  if (!start || !end || lo < *start || hi > *end || *start >= *end) return std::nullopt;
  return std::make_pair(*start, *end);
}

// A file's text with a rewrite's edits applied, and the defect the edits write into it that it
// did not have (new_defects.h), or "".
struct EditedFile {
  std::string text;
  std::string new_defect;
};

// The file's text with the edits applied. The result must not have more syntax errors than
// the original; only the top-level statements the edits touch are parsed for that (an edit
// inside one def cannot change how another parses), as re-parsing a large file per
// candidate would cost more than everything else at a site; the edited region is then
// re-parsed incrementally from the region's own tree (ApplyEdits, Document::Reparse). The
// new defects are looked for in the same region: a class, when the edit is in a method, so a
// method's name is known for one.
absl::StatusOr<EditedFile> EditedText(const Document& document, const EditSet& edits) {
  std::optional<std::pair<size_t, size_t>> region = TopLevelRegion(document, edits);
  if (!region) {
    SMALLFIX_ASSIGN_OR_RETURN(Document edited, ApplyEdits(document, edits));
    return EditedFile{std::string(edited.text()), NewDefect(document, edited)};
  }
  const auto [start, end] = *region;
  EditSet shifted;
  for (const Edit& edit : edits.edits()) {
    SMALLFIX_RETURN_IF_ERROR(shifted.Add({edit.start - start, edit.end - start, edit.replacement}));
  }
  const std::string_view text = document.text();
  SMALLFIX_ASSIGN_OR_RETURN(
      Document before,
      Document::Parse(document.path(), std::string(text.substr(start, end - start))));
  SMALLFIX_ASSIGN_OR_RETURN(Document after, ApplyEdits(before, shifted));
  return EditedFile{Concat(text.substr(0, start), after.text(), text.substr(end)),
                    NewDefect(before, after)};
}

// Applies the template's actions to one state, then to each of `others` (a `fix-all`
// template's other matches) whose actions all apply beside the edits so far: the candidate,
// or why there is none.
absl::StatusOr<Candidate> Rewrite(const Template& t, MatchState& state,
                                  const std::vector<MatchState>& others, const Document& document,
                                  int line, double symptom_score, const MatchContext& context,
                                  std::string& key) {
  std::map<std::string, FileEdits> files;
  for (const Template::Action& action : t.actions) {
    SMALLFIX_RETURN_IF_ERROR(ApplyAction(action, context, state, files));
  }
  int fixed_too = 0;
  for (MatchState other : others) {
    std::map<std::string, FileEdits> trial = files;  // Documents are cheap to copy
    absl::Status status;
    for (const Template::Action& action : t.actions) {
      status = ApplyAction(action, context, other, trial);
      if (!status.ok()) break;
    }
    if (!status.ok()) continue;
    files = std::move(trial);
    ++fixed_too;
  }
  // A template tried although its symptom did not match ranks by what it does without one.
  const double prior =
      !t.symptoms.empty() && symptom_score == 0 && t.unmatched_prior ? *t.unmatched_prior : t.prior;
  // A look-up that read the failing run's facts (it binds `fact`) confirmed at run time what a
  // symptom with only a type leaves open (which value was None, which name the module has):
  // more than the type alone (0.8), less than a template written for the message (1.0), whose
  // edit is the one such failures take, where a fact says only which value to test.
  const double symptom = symptom_score > 0 && state.bindings.contains("fact")
                             ? std::max(symptom_score, kFactConfirmedScore)
                             : symptom_score;
  Candidate candidate{t.id,  t.family, t.summary,      document.path(), line,         symptom,
                      prior, {},       state.bindings, t.weak,          1 + fixed_too};
  for (auto& [path, file] : files) {
    if (file.edits.empty()) continue;
    SMALLFIX_ASSIGN_OR_RETURN(EditedFile edited, EditedText(file.document, file.edits));
    if (!edited.new_defect.empty()) {
      return absl::FailedPreconditionError(Concat("the rewrite ", edited.new_defect));
    }
    key += Concat(path, "\n", edited.text, "\n");
    candidate.changes.push_back({path, std::string(file.document.text()), std::move(edited.text)});
  }
  if (candidate.changes.empty()) return absl::NotFoundError("the rewrite changes nothing");
  return candidate;
}

}  // namespace

namespace {

// The placeholders every match at `statement` has, then `extra` (the symptom's groups, or a
// scan's binds) over them.
Bindings SiteBindings(const Document& document, TSNode statement, int line, const Symptom& symptom,
                      const Bindings& extra) {
  std::optional<TSNode> def = EnclosingOfType(statement, {"function_definition"});
  const std::string function =
      def ? std::string(document.NodeText(ts_node_child_by_field_name(*def, "name", 4)))
          : "<module>";
  // Built-ins first; a symptom group of the same name (a message's `function`) wins.
  Bindings bindings = {
      {"statement", std::string(document.NodeText(statement))},
      {"file", document.path()},
      {"line", std::to_string(line)},
      {"exception", symptom.exception_type},
      {"message", symptom.message},
      {"function", function},
  };
  for (const auto& [name, value] : extra) bindings[name] = value;
  // The enclosing def's own name, which no symptom field replaces (a message's `function`
  // may name another def: the callee that rejected a keyword).
  bindings["def"] = def ? function : "";
  return bindings;
}

// A match's state before its look-ups: its captures bound over `bindings`, if the template's
// `where` conditions hold (else why not).
absl::StatusOr<MatchState> ConditionedState(const Template& t, const Document& document,
                                            TSNode statement, const QueryMatch& match,
                                            const Bindings& bindings) {
  MatchState state;
  state.document = &document;
  state.statement = statement;
  state.bindings = bindings;
  for (const QueryCapture& capture : match.captures) {
    // The first node of a capture wins, as QueryMatch::Get does.
    if (state.nodes.emplace(std::string(capture.name), capture.node).second) {
      state.bindings[std::string(capture.name)] = std::string(document.NodeText(capture.node));
    }
  }
  for (const Template::Condition& condition : t.conditions) {
    SMALLFIX_RETURN_IF_ERROR(CheckCondition(condition, state));
  }
  return state;
}

// For a `fix-all` template: the states of the query's matches in the rest of the site's file
// (outside `scope`) whose `where` conditions hold, each bound as a site of its own.
std::vector<MatchState> OtherMatches(const Template& t, const Document& document,
                                     const Scope& scope, const Symptom& symptom,
                                     const Bindings& symptom_bindings) {
  std::vector<MatchState> others;
  const TSNode root = document.root();
  for (const QueryMatch& match :
       t.query->Run(document, root, ts_node_start_byte(root), ts_node_end_byte(root))) {
    if (match.captures.empty()) continue;
    size_t start = ts_node_start_byte(match.captures.front().node), end = start;
    for (const QueryCapture& capture : match.captures) {
      start = std::min<size_t>(start, ts_node_start_byte(capture.node));
      end = std::max<size_t>(end, ts_node_end_byte(capture.node));
    }
    if (start < scope.end && end > scope.start) continue;  // the site's own
    std::optional<TSNode> statement = StatementAt(document, start);
    if (!statement) continue;
    const int line = static_cast<int>(document.NodeStart(*statement).line) + 1;
    absl::StatusOr<MatchState> state =
        ConditionedState(t, document, *statement, match,
                         SiteBindings(document, *statement, line, symptom, symptom_bindings));
    if (state.ok()) others.push_back(*std::move(state));
  }
  return others;
}

// One query match turned into candidates: its conditions, its look-ups (which may fork
// it), `after_lookups` (a scan's own conditions) and the rewrite, which also rewrites
// `others`. Candidates whose result is already in `seen` are dropped.
void CandidatesOfMatch(const Template& t, const Document& document, TSNode statement, int line,
                       const QueryMatch& match, const Bindings& bindings, double symptom_score,
                       const std::vector<Template::Condition>& after_lookups,
                       const std::vector<MatchState>& others, const MatchContext& context,
                       const std::function<void(std::string)>& note, std::set<std::string>& seen,
                       std::vector<Candidate>& candidates) {
  absl::StatusOr<MatchState> state = ConditionedState(t, document, statement, match, bindings);
  if (!state.ok()) {
    note(std::string(state.status().message()));
    return;
  }
  absl::Status status;
  for (MatchState& answered : RunLookups(t, *std::move(state), context, note)) {
    for (const Template::Condition& condition : after_lookups) {
      status = CheckCondition(condition, answered);
      if (!status.ok()) break;
    }
    if (!status.ok()) {
      note(std::string(status.message()));
      status = absl::OkStatus();
      continue;
    }
    std::string key;
    absl::StatusOr<Candidate> candidate =
        Rewrite(t, answered, others, document, line, symptom_score, context, key);
    if (!candidate.ok()) {
      note(std::string(candidate.status().message()));
      continue;
    }
    if (seen.insert(key).second) candidates.push_back(*std::move(candidate));
  }
}

}  // namespace

std::vector<Candidate> MatchTemplate(const Template& t, const Document& document, int line,
                                     const Symptom& symptom, const MatchContext& context,
                                     std::vector<std::string>* reasons, SymptomMode mode) {
  const std::function<void(std::string)> note = [&](std::string why) {
    if (reasons != nullptr) reasons->push_back(std::move(why));
  };
  std::vector<Candidate> candidates;
  Bindings symptom_bindings = symptom.fields;
  std::optional<double> symptom_score = MatchSymptom(t, symptom, symptom_bindings);
  if (!symptom_score) {
    note(Concat("the symptom `", symptom.exception_type, ": ", symptom.message,
                "` is not one the template answers"));
    if (mode == SymptomMode::kRequire) return candidates;
    // Tried anyway, ranked last; placeholders from the symptom stay unbound, so a template
    // that needs them drops out by itself.
    symptom_score = 0.0;
    symptom_bindings = symptom.fields;
  }
  std::optional<TSNode> statement = StatementAtLine(document, line - 1);
  if (!statement) {
    note(absl::StrFormat("no statement at line %d", line));
    return candidates;
  }
  const Scope scope = QueryScope(t, document, *statement, line - 1);
  std::vector<QueryMatch> matches;
  if (t.query) {
    if (!ts_node_is_null(scope.node)) {
      matches = t.query->Run(document, scope.node, scope.start, scope.end);
    }
  } else {
    matches.emplace_back();  // no query: the statement itself is the match
  }
  if (matches.empty()) note("the query found nothing at the site");

  const Bindings bindings = SiteBindings(document, *statement, line, symptom, symptom_bindings);
  const std::vector<MatchState> others =
      t.fix_all && !matches.empty() ? OtherMatches(t, document, scope, symptom, symptom_bindings)
                                    : std::vector<MatchState>{};
  std::set<std::string> seen;  // one candidate per distinct result
  for (const QueryMatch& match : matches) {
    CandidatesOfMatch(t, document, *statement, line, match, bindings, *symptom_score, {}, others,
                      context, note, seen, candidates);
  }
  return candidates;
}

std::vector<Candidate> MatchAtStatement(const Template& t, const Document& document,
                                        TSNode statement, int line, const QueryMatch& match,
                                        const Bindings& binds,
                                        const std::vector<Template::Condition>& after_lookups,
                                        const MatchContext& context,
                                        std::vector<std::string>* reasons) {
  const std::function<void(std::string)> note = [&](std::string why) {
    if (reasons != nullptr) reasons->push_back(std::move(why));
  };
  const Bindings bindings = SiteBindings(document, statement, line, Symptom{}, binds);
  std::set<std::string> seen;
  std::vector<Candidate> candidates;
  CandidatesOfMatch(t, document, statement, line, match, bindings, 0.0, after_lookups, {}, context,
                    note, seen, candidates);
  return candidates;
}

}  // namespace smallfix
