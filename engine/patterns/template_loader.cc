#include "engine/patterns/template_loader.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/base/symptom_classes.h"
#include "engine/facts/runtime_facts.h"
#include "engine/patterns/lookups/lookup.h"
#include "engine/patterns/placeholders.h"
#include "engine/patterns/rewriter.h"

namespace smallfix {
namespace {

// generic: fix operators that name no symptom (invert a test, the nearest name, ...).
const std::set<std::string> kFamilies = {"guard", "param", "compat", "generic"};
const std::set<std::string> kScopes = {"statement", "loop", "function", "module"};

// Placeholders every match has whatever the template says: the site and its statement.
const std::set<std::string> kBuiltinPlaceholders = {"statement", "function",  "def",    "file",
                                                    "line",      "exception", "message"};

// Where a YAML node is, for messages: "file:line".
std::string At(const std::string& path, const YAML::Node& node) {
  return absl::StrFormat("%s:%d", path, node.Mark().line + 1);
}

absl::Status Error(const std::string& path, const YAML::Node& node, std::string_view what) {
  return absl::InvalidArgumentError(Concat(At(path, node), ": ", what));
}

absl::Status CheckKeys(const std::string& path, const YAML::Node& node, std::string_view where,
                       const std::set<std::string>& allowed) {
  if (!node.IsMap()) return Error(path, node, Concat(where, " must be a mapping"));
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (!allowed.contains(key)) {
      std::string known;
      for (const std::string& k : allowed) known += (known.empty() ? "" : ", ") + k;
      return Error(path, entry.first,
                   Concat("unknown key '", key, "' in ", where, " (known: ", known, ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Scalar(const std::string& path, const YAML::Node& node,
                                   std::string_view what) {
  if (!node.IsScalar()) return Error(path, node, Concat(what, " must be a string"));
  return node.as<std::string>();
}

// Reads the arguments of a look-up or an action: every key of `entry` but `kind_key`, each a
// string named in `allowed`, whose placeholders are all bound by now.
absl::StatusOr<std::map<std::string, std::string>> ReadArguments(
    const std::string& path, const YAML::Node& entry, const std::string& kind_key,
    const std::string& what, const std::vector<const char*>& allowed,
    const std::set<std::string>& bound) {
  std::map<std::string, std::string> args;
  for (const auto& item : entry) {
    const std::string key = item.first.as<std::string>();
    if (key == kind_key) continue;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return Error(path, item.first, Concat(what, " takes no '", key, "'"));
    }
    SMALLFIX_ASSIGN_OR_RETURN(std::string value, Scalar(path, item.second, key));
    for (const std::string& name : PlaceholderNames(value)) {
      if (!bound.contains(name)) {
        return Error(
            path, item.second,
            Concat("placeholder {", name,
                   "} is not bound here (not a capture, symptom group or earlier look-up)"));
      }
    }
    args[key] = value;
  }
  return args;
}

// The loader reads a template part by part, in file order; each part may use the
// placeholders the parts before it bind (`bound`).
using Bound = std::set<std::string>;

absl::Status ReadHeader(const std::string& path, const YAML::Node& root, Template& t) {
  if (absl::Status s = CheckKeys(
          path, root, "a template",
          {"id", "family", "summary", "prior", "unmatched-prior", "weak", "fix-all", "symptoms",
           "scope", "query", "where", "context", "rewrite", "examples", "scan"});
      !s.ok()) {
    return s;
  }
  for (const char* key : {"id", "family", "summary", "rewrite", "examples"}) {
    if (!root[key]) return Error(path, root, Concat("missing required key '", key, "'"));
  }
  t.file = path;
  t.id = root["id"].as<std::string>();
  t.family = root["family"].as<std::string>();
  t.summary = root["summary"].as<std::string>();
  if (!kFamilies.contains(t.family)) {
    return Error(path, root["family"],
                 Concat("family '", t.family, "' is not guard, param, compat or generic"));
  }
  if (!t.id.starts_with(t.family + ".")) {
    return Error(path, root["id"],
                 Concat("id '", t.id, "' must start with its family, '", t.family, ".'"));
  }
  if (root["prior"]) {
    t.prior = root["prior"].as<double>();
    if (t.prior <= 0 || t.prior > 1) return Error(path, root["prior"], "prior must be in (0, 1]");
  }
  if (root["unmatched-prior"]) {
    if (!root["symptoms"]) {
      return Error(path, root["unmatched-prior"],
                   "unmatched-prior is for a template with symptoms; a generic one has only prior");
    }
    t.unmatched_prior = root["unmatched-prior"].as<double>();
    if (*t.unmatched_prior <= 0 || *t.unmatched_prior > 1) {
      return Error(path, root["unmatched-prior"], "unmatched-prior must be in (0, 1]");
    }
  }
  for (const auto& [key, flag] : {std::pair{"weak", &t.weak}, std::pair{"fix-all", &t.fix_all}}) {
    const YAML::Node node = root[key];
    if (!node) continue;
    if (!node.IsScalar() || (node.Scalar() != "true" && node.Scalar() != "false"))
      return Error(path, node, Concat(key, " must be true or false"));
    *flag = node.Scalar() == "true";
  }
  if (root["scope"]) {
    t.scope = root["scope"].as<std::string>();
    if (!kScopes.contains(t.scope)) {
      return Error(path, root["scope"], "scope must be statement, loop, function or module");
    }
  }
  return absl::OkStatus();
}

absl::Status ReadSymptoms(const std::string& path, const YAML::Node& symptoms, Template& t,
                          Bound& bound) {
  if (!symptoms) return absl::OkStatus();
  if (!symptoms.IsSequence()) return Error(path, symptoms, "symptoms must be a list");
  for (const YAML::Node& entry : symptoms) {
    SMALLFIX_RETURN_IF_ERROR(CheckKeys(path, entry, "a symptom", {"type", "message", "class"}));
    Template::Symptom symptom;
    if (entry["type"]) symptom.type = entry["type"].as<std::string>();
    if (entry["class"]) {
      symptom.symptom_class = entry["class"].as<std::string>();
      if (!IsSymptomClass(symptom.symptom_class)) {
        return Error(
            path, entry["class"],
            Concat("unknown class '", symptom.symptom_class, "'; known: ", SymptomClassList()));
      }
    }
    if (entry["message"]) {
      RE2::Options options;
      options.set_log_errors(false);
      auto regex = std::make_shared<RE2>(entry["message"].as<std::string>(), options);
      if (!regex->ok()) {
        return Error(path, entry["message"], Concat("bad message regex: ", regex->error()));
      }
      for (const auto& [name, index] : regex->NamedCapturingGroups()) bound.insert(name);
      symptom.message = std::move(regex);
    }
    if (symptom.type.empty() && !symptom.message && symptom.symptom_class.empty()) {
      return Error(path, entry, "a symptom needs a type, a message or a class");
    }
    t.symptoms.push_back(std::move(symptom));
  }
  return absl::OkStatus();
}

// Compiles a query written at `query` in the file; errors point at the file's line.
absl::StatusOr<Query> CompileQuery(const std::string& path, const YAML::Node& query) {
  SMALLFIX_ASSIGN_OR_RETURN(std::string source, Scalar(path, query, "query"));
  absl::StatusOr<Query> compiled = Query::Compile(source);
  if (!compiled.ok()) {
    // Point at the file's line: Query speaks of lines of the query text, which starts on
    // the line after `query: |` (a block scalar) or on the key's own line.
    std::string message(compiled.status().message());
    int query_line = 0, column = 0;
    const RE2 where_in_query("at line (\\d+), column (\\d+)");
    int file_line = query.Mark().line + 1;
    if (RE2::PartialMatch(message, where_in_query, &query_line, &column)) {
      const bool block = source.find('\n') != std::string::npos;
      file_line += (block ? query_line : query_line - 1);
      RE2::Replace(&message, where_in_query, absl::StrFormat("at column %d", column));
    }
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: query: %s", path, file_line, message));
  }
  return compiled;
}

absl::Status ReadQuery(const std::string& path, const YAML::Node& query, Template& t,
                       Bound& bound) {
  if (!query) return absl::OkStatus();
  SMALLFIX_ASSIGN_OR_RETURN(Query compiled, CompileQuery(path, query));
  for (const std::string& name : compiled.capture_names()) bound.insert(name);
  t.query = std::move(compiled);
  return absl::OkStatus();
}

absl::StatusOr<Template::Condition> ReadCondition(const std::string& path, const YAML::Node& entry,
                                                  Bound& bound) {
  using Kind = Template::Condition::Kind;
  SMALLFIX_RETURN_IF_ERROR(CheckKeys(
      path, entry, "a where condition",
      {"capture", "equals", "not-equals", "matches", "not-matches", "inside", "not-inside"}));
  Template::Condition condition;
  condition.line = entry.Mark().line + 1;
  int kinds = 0;
  for (const auto& [key, kind] :
       {std::pair{"equals", Kind::kEquals}, std::pair{"not-equals", Kind::kNotEquals},
        std::pair{"matches", Kind::kMatches}, std::pair{"not-matches", Kind::kNotMatches},
        std::pair{"inside", Kind::kInside}, std::pair{"not-inside", Kind::kNotInside}}) {
    if (entry[key]) {
      condition.kind = kind;
      condition.value = entry[key].as<std::string>();
      ++kinds;
    }
  }
  if (kinds != 1) return Error(path, entry, "a where condition needs exactly one test");
  const bool text_test = condition.kind != Kind::kInside && condition.kind != Kind::kNotInside;
  if (text_test) {
    if (!entry["capture"]) return Error(path, entry, "this condition needs a capture");
    condition.capture = entry["capture"].as<std::string>();
    if (!bound.contains(condition.capture)) {
      return Error(path, entry["capture"],
                   Concat("capture '", condition.capture, "' is not in the query"));
    }
  }
  if (condition.kind == Kind::kMatches || condition.kind == Kind::kNotMatches) {
    RE2 regex(condition.value, RE2::Quiet);
    if (!regex.ok()) return Error(path, entry, Concat("bad regex: ", regex.error()));
    // A `matches` regex's named groups are placeholders from here on.
    if (condition.kind == Kind::kMatches) {
      for (const auto& [name, index] : regex.NamedCapturingGroups()) bound.insert(name);
    }
  }
  return condition;
}

absl::Status ReadConditions(const std::string& path, const YAML::Node& where, Template& t,
                            Bound& bound) {
  if (!where) return absl::OkStatus();
  if (!where.IsSequence()) return Error(path, where, "where must be a list");
  for (const YAML::Node& entry : where) {
    SMALLFIX_ASSIGN_OR_RETURN(Template::Condition condition, ReadCondition(path, entry, bound));
    t.conditions.push_back(std::move(condition));
  }
  return absl::OkStatus();
}

// Names the known look-ups (or actions) for a message.
template <typename Spec>
std::string Known(const std::vector<Spec>& specs) {
  std::string known;
  for (const Spec& spec : specs) known += Concat(known.empty() ? "" : ", ", spec.name);
  return known;
}

absl::Status ReadLookups(const std::string& path, const YAML::Node& context, Template& t,
                         Bound& bound) {
  if (!context) return absl::OkStatus();
  if (!context.IsSequence()) return Error(path, context, "context must be a list");
  for (const YAML::Node& entry : context) {
    if (!entry.IsMap() || !entry["lookup"])
      return Error(path, entry, "a context entry needs 'lookup'");
    const std::string name = entry["lookup"].as<std::string>();
    const LookupSpec* spec = FindLookupSpec(name);
    if (spec == nullptr) {
      return Error(path, entry["lookup"],
                   Concat("unknown lookup '", name, "'; known: ", Known(LookupSpecs())));
    }
    Template::Lookup lookup;
    lookup.line = entry.Mark().line + 1;
    lookup.spec = spec;
    absl::StatusOr<std::map<std::string, std::string>> args =
        ReadArguments(path, entry, "lookup", Concat("lookup '", name, "'"), spec->args, bound);
    if (!args.ok()) return args.status();
    lookup.args = *std::move(args);
    for (const char* bind : spec->binds) {
      lookup.binds.emplace_back(bind);
      bound.insert(bind);
    }
    t.lookups.push_back(std::move(lookup));
  }
  return absl::OkStatus();
}

absl::Status ReadActions(const std::string& path, const YAML::Node& rewrite, Template& t,
                         const Bound& bound) {
  if (!rewrite.IsSequence() || rewrite.size() == 0) {
    return Error(path, rewrite, "rewrite must be a non-empty list of actions");
  }
  for (const YAML::Node& entry : rewrite) {
    if (!entry.IsMap() || !entry["action"])
      return Error(path, entry, "a rewrite entry needs 'action'");
    const std::string name = entry["action"].as<std::string>();
    const ActionSpec* spec = FindActionSpec(name);
    if (spec == nullptr) {
      return Error(path, entry["action"],
                   Concat("unknown action '", name, "'; known: ", Known(ActionSpecs())));
    }
    Template::Action action;
    action.line = entry.Mark().line + 1;
    action.kind = spec->kind;
    std::vector<const char*> allowed = spec->required;
    allowed.insert(allowed.end(), spec->optional.begin(), spec->optional.end());
    absl::StatusOr<std::map<std::string, std::string>> args =
        ReadArguments(path, entry, "action", Concat("action '", name, "'"), allowed, bound);
    if (!args.ok()) return args.status();
    action.args = *std::move(args);
    for (const char* key : spec->required) {
      if (!action.args.contains(key)) {
        return Error(path, entry, Concat("action '", name, "' needs '", key, "'"));
      }
    }
    t.actions.push_back(std::move(action));
  }
  return absl::OkStatus();
}

absl::Status ReadExamples(const std::string& path, const YAML::Node& examples, Template& t) {
  if (!examples.IsSequence() || examples.size() < 2) {
    return Error(path, examples, "a template needs at least two examples");
  }
  bool has_negative = false;
  for (const YAML::Node& entry : examples) {
    SMALLFIX_RETURN_IF_ERROR(
        CheckKeys(path, entry, "an example",
                  {"name", "symptom", "before", "line", "after", "files", "facts"}));
    for (const char* key : {"name", "before", "line", "after"}) {
      if (!entry[key])
        return Error(
            path, entry,
            Concat("an example needs '", key, "' (after: null when the template must not apply)"));
    }
    Template::Example example;
    example.name = entry["name"].as<std::string>();
    if (entry["symptom"]) example.symptom = entry["symptom"].as<std::string>();
    example.before = entry["before"].as<std::string>();
    example.line = entry["line"].as<int>();
    if (entry["after"].IsNull()) {
      has_negative = true;
    } else {
      example.after = entry["after"].as<std::string>();
    }
    if (const YAML::Node files = entry["files"]) {
      if (!files.IsMap()) return Error(path, files, "files must map paths to their text");
      for (const auto& file : files) {
        example.files[file.first.as<std::string>()] = file.second.as<std::string>();
      }
    }
    if (const YAML::Node facts = entry["facts"]) {
      absl::StatusOr<RuntimeFacts> parsed = ParseRuntimeFacts(facts.as<std::string>());
      if (!parsed.ok()) return Error(path, facts, std::string(parsed.status().message()));
      example.facts = std::make_shared<const RuntimeFacts>(*std::move(parsed));
    }
    t.examples.push_back(std::move(example));
  }
  if (!has_negative) {
    return Error(path, examples,
                 "a template needs an example where it must not apply (after: null)");
  }
  return absl::OkStatus();
}

// The placeholders the template's where, context and rewrite take from the symptom's
// message groups: a scan has no failure, so its `bind` must give each of them.
std::set<std::string> SymptomPlaceholdersUsed(const Template& t) {
  std::set<std::string> groups;
  for (const Template::Symptom& symptom : t.symptoms) {
    if (!symptom.message) continue;
    for (const auto& [name, index] : symptom.message->NamedCapturingGroups()) groups.insert(name);
  }
  if (t.query) {
    for (const std::string& capture : t.query->capture_names()) groups.erase(capture);
  }
  std::set<std::string> used;
  auto note = [&](const std::string& text) {
    for (const std::string& name : PlaceholderNames(text)) {
      if (groups.contains(name)) used.insert(name);
    }
  };
  for (const Template::Condition& condition : t.conditions) {
    note(condition.value);
    if (groups.contains(condition.capture)) used.insert(condition.capture);
  }
  for (const Template::Lookup& lookup : t.lookups) {
    for (const auto& [key, value] : lookup.args) note(value);
  }
  for (const Template::Action& action : t.actions) {
    for (const auto& [key, value] : action.args) note(value);
  }
  return used;
}

absl::Status ReadScanExamples(const std::string& path, const YAML::Node& examples,
                              Template::Scan& scan) {
  if (!examples || !examples.IsSequence()) {
    return Error(path, examples ? examples : YAML::Node(), "scan needs a list of examples");
  }
  bool positive = false, negative = false;
  for (const YAML::Node& entry : examples) {
    SMALLFIX_RETURN_IF_ERROR(CheckKeys(path, entry, "a scan example", {"name", "code", "lines"}));
    for (const char* key : {"name", "code", "lines"}) {
      if (!entry[key])
        return Error(
            path, entry,
            Concat("a scan example needs '", key, "' (lines: [] when nothing must be found)"));
    }
    Template::Scan::Example example;
    example.line = entry.Mark().line + 1;
    example.name = entry["name"].as<std::string>();
    example.code = entry["code"].as<std::string>();
    if (!entry["lines"].IsSequence())
      return Error(path, entry["lines"], "lines must be a list of line numbers");
    for (const YAML::Node& line : entry["lines"]) {
      const int n = line.as<int>();
      if (n < 1) return Error(path, line, "a line number starts at 1");
      example.lines.push_back(n);
    }
    (example.lines.empty() ? negative : positive) = true;
    scan.examples.push_back(std::move(example));
  }
  if (!positive || !negative) {
    return Error(path, examples,
                 "scan needs an example with findings (lines: [N]) and one without (lines: [])");
  }
  return absl::OkStatus();
}

// Reads the `message`, `filter` and `filter-over` of a `scan:` stanza.
absl::Status ReadScanFilter(const std::string& path, const YAML::Node& node, Template::Scan& scan) {
  SMALLFIX_ASSIGN_OR_RETURN(scan.message, Scalar(path, node["message"], "scan message"));
  SMALLFIX_ASSIGN_OR_RETURN(const std::string filter, Scalar(path, node["filter"], "scan filter"));
  for (const std::string& name : PlaceholderNames(filter)) {
    if (name != "removed_apis") {
      return Error(path, node["filter"],
                   Concat("scan filter: unknown placeholder {", name, "} (known: {removed_apis})"));
    }
  }
  absl::StatusOr<std::string> sample = Expand(filter, {{"removed_apis", "x"}});
  if (!sample.ok())
    return Error(path, node["filter"], Concat("scan filter: ", sample.status().message()));
  RE2 filter_regex(*sample, RE2::Quiet);
  if (!filter_regex.ok())
    return Error(path, node["filter"], Concat("scan filter: bad regex: ", filter_regex.error()));
  scan.filter = filter;
  if (node["filter-over"]) {
    scan.filter_over = node["filter-over"].as<std::string>();
    if (scan.filter_over != "file" && scan.filter_over != "def-signatures") {
      return Error(path, node["filter-over"], "scan filter-over must be file or def-signatures");
    }
  }
  return absl::OkStatus();
}

// Reads the `query` and `site` of a `scan:` stanza: its own query must capture what the
// template's does; the site is a capture of the query the scan runs.
absl::Status ReadScanQuery(const std::string& path, const YAML::Node& node, const Template& t,
                           Template::Scan& scan) {
  if (node["query"]) {
    SMALLFIX_ASSIGN_OR_RETURN(Query query, CompileQuery(path, node["query"]));
    if (t.query) {
      for (const std::string& capture : t.query->capture_names()) {
        const auto& names = query.capture_names();
        if (std::find(names.begin(), names.end(), capture) == names.end()) {
          return Error(
              path, node["query"],
              Concat("scan query lacks @", capture, ", which the template's query captures"));
        }
      }
    }
    scan.query = std::move(query);
  }
  const std::optional<Query>& query = scan.query ? scan.query : t.query;
  if (!query || query->capture_names().empty()) {
    return Error(path, node, "scan needs a query with a capture (the template's or its own)");
  }
  scan.site = query->capture_names().front();
  if (node["site"]) {
    scan.site = node["site"].as<std::string>();
    const auto& names = query->capture_names();
    if (std::find(names.begin(), names.end(), scan.site) == names.end()) {
      return Error(path, node["site"],
                   Concat("scan site '", scan.site, "' is not a capture of the query"));
    }
  }
  return absl::OkStatus();
}

// Reads the `bind` of a `scan:` stanza (placeholders from the query's captures), which must
// give every placeholder the template takes from a failure's message.
absl::Status ReadScanBind(const std::string& path, const YAML::Node& node, const Template& t,
                          const std::vector<std::string>& captures, Template::Scan& scan) {
  if (const YAML::Node bind = node["bind"]) {
    if (!bind.IsMap()) return Error(path, bind, "scan bind must map placeholders to text");
    for (const auto& entry : bind) {
      const std::string name = entry.first.as<std::string>();
      SMALLFIX_ASSIGN_OR_RETURN(const std::string value, Scalar(path, entry.second, name));
      for (const std::string& used : PlaceholderNames(value)) {
        if (!kBuiltinPlaceholders.contains(used) &&
            std::find(captures.begin(), captures.end(), used) == captures.end()) {
          return Error(path, entry.second,
                       Concat("scan bind: {", used, "} is not a capture of the query"));
        }
      }
      scan.bind[name] = value;
    }
  }
  for (const std::string& needed : SymptomPlaceholdersUsed(t)) {
    if (!scan.bind.contains(needed)) {
      return Error(path, node,
                   Concat("scan must bind {", needed,
                          "}: the template takes it from the failure's message"));
    }
  }
  return absl::OkStatus();
}

// Reads the `scan:` stanza. `bound` holds what the template itself binds (its query's
// captures, its look-ups' results, its symptom groups).
absl::Status ReadScan(const std::string& path, const YAML::Node& node, Template& t,
                      const Bound& bound) {
  if (!node) return absl::OkStatus();
  SMALLFIX_RETURN_IF_ERROR(CheckKeys(
      path, node, "scan",
      {"message", "filter", "filter-over", "query", "site", "bind", "where", "examples"}));
  for (const char* key : {"message", "filter", "examples"}) {
    if (!node[key]) return Error(path, node, Concat("scan needs '", key, "'"));
  }
  Template::Scan scan;
  SMALLFIX_RETURN_IF_ERROR(ReadScanFilter(path, node, scan));
  SMALLFIX_RETURN_IF_ERROR(ReadScanQuery(path, node, t, scan));
  const std::vector<std::string>& captures = (scan.query ? scan.query : t.query)->capture_names();
  SMALLFIX_RETURN_IF_ERROR(ReadScanBind(path, node, t, captures, scan));
  Bound scan_bound = bound;
  for (const std::string& capture : captures) scan_bound.insert(capture);
  if (const YAML::Node where = node["where"]) {
    if (!where.IsSequence()) return Error(path, where, "scan where must be a list");
    for (const YAML::Node& entry : where) {
      SMALLFIX_ASSIGN_OR_RETURN(Template::Condition condition,
                                ReadCondition(path, entry, scan_bound));
      scan.conditions.push_back(std::move(condition));
    }
  }
  SMALLFIX_RETURN_IF_ERROR(ReadScanExamples(path, node["examples"], scan));
  t.scan = std::move(scan);
  return absl::OkStatus();
}

// Reads one template from a parsed YAML document.
absl::StatusOr<Template> Read(const std::string& path, const YAML::Node& root) {
  Template t;
  Bound bound = kBuiltinPlaceholders;
  SMALLFIX_RETURN_IF_ERROR(ReadHeader(path, root, t));
  SMALLFIX_RETURN_IF_ERROR(ReadSymptoms(path, root["symptoms"], t, bound));
  SMALLFIX_RETURN_IF_ERROR(ReadQuery(path, root["query"], t, bound));
  SMALLFIX_RETURN_IF_ERROR(ReadConditions(path, root["where"], t, bound));
  SMALLFIX_RETURN_IF_ERROR(ReadLookups(path, root["context"], t, bound));
  SMALLFIX_RETURN_IF_ERROR(ReadActions(path, root["rewrite"], t, bound));
  SMALLFIX_RETURN_IF_ERROR(ReadExamples(path, root["examples"], t));
  SMALLFIX_RETURN_IF_ERROR(ReadScan(path, root["scan"], t, bound));
  return t;
}

}  // namespace

absl::StatusOr<Template> LoadTemplate(const std::string& path) {
  // The largest template is a few KiB: one of megabytes is a mistake (a pasted regex or query
  // that large would cost seconds to compile at every load, or memory the matcher lacks).
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxTemplateBytes) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: %d bytes; a template is at most %d KiB",
                                                      path, size, kMaxTemplateBytes >> 10));
  }
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    return absl::NotFoundError(Concat("cannot read template ", path));
  } catch (const YAML::Exception& error) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: not valid YAML: %s", path, error.mark.line + 1, error.msg));
  } catch (const std::exception& error) {
    return absl::InvalidArgumentError(Concat("cannot read template ", path, ": ", error.what()));
  }
  try {
    return Read(path, root);
  } catch (const YAML::Exception& error) {
    // A value of the wrong shape (a list where a string belongs, a word where a number does).
    const bool conversion = dynamic_cast<const YAML::BadConversion*>(&error) != nullptr;
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s:%d: %s", path, error.mark.line + 1,
        conversion ? "a value of the wrong type (a list, mapping or alias where a string or "
                     "number belongs)"
                   : error.msg));
  } catch (const std::exception& error) {
    return absl::InvalidArgumentError(Concat(path, ": ", error.what()));
  }
}

absl::StatusOr<std::vector<Template>> LoadTemplates(const std::string& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    return absl::NotFoundError(Concat("template directory ", dir, " does not exist"));
  }
  std::vector<std::string> paths;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    const auto& p = it->path();
    if (it->is_regular_file() && p.extension() == ".yaml") {
      paths.push_back(p.string());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Template> templates;
  std::map<std::string, std::string> seen;
  for (const std::string& path : paths) {
    SMALLFIX_ASSIGN_OR_RETURN(Template t, LoadTemplate(path));
    if (auto [it, inserted] = seen.emplace(t.id, path); !inserted) {
      return absl::InvalidArgumentError(
          Concat(path, ": template id '", t.id, "' is also used by ", it->second));
    }
    templates.push_back(std::move(t));
  }
  return templates;
}

}  // namespace smallfix
