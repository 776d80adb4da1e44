#include "engine/localize/symptom.h"

#include <re2/re2.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/base/concat.h"
#include "engine/localize/symptom_rules.h"

namespace smallfix {
namespace {

struct CompiledRule {
  std::unique_ptr<RE2> type;     // null: any type
  std::unique_ptr<RE2> message;  // null: any message
  std::string_view symptom_class;
};

// The compiled table: built once, immutable afterwards (not mutable global state).
const std::vector<CompiledRule>& CompiledRules() {
  static const std::vector<CompiledRule>* const rules = [] {
    auto* out = new std::vector<CompiledRule>();
    for (const SymptomRule& rule : kSymptomRules) {
      CompiledRule compiled;
      if (!rule.type.empty()) compiled.type = std::make_unique<RE2>(rule.type);
      if (!rule.message.empty()) compiled.message = std::make_unique<RE2>(rule.message);
      compiled.symptom_class = rule.symptom_class;
      out->push_back(std::move(compiled));
    }
    return out;
  }();
  return *rules;
}

const std::vector<std::unique_ptr<RE2>>& FieldPatterns() {
  static const std::vector<std::unique_ptr<RE2>>* const patterns = [] {
    auto* out = new std::vector<std::unique_ptr<RE2>>();
    for (std::string_view pattern : kFieldPatterns) out->push_back(std::make_unique<RE2>(pattern));
    return out;
  }();
  return *patterns;
}

// Partial match of `re` in `text`; fills `fields` with its non-empty named groups.
bool MatchFields(const RE2& re, std::string_view text, decltype(Symptom::fields)* fields,
                 bool overwrite) {
  const int groups = re.NumberOfCapturingGroups();
  std::vector<re2::StringPiece> captures(groups + 1);
  if (!re.Match(text, 0, text.size(), RE2::UNANCHORED, captures.data(), groups + 1)) return false;
  for (const auto& [name, index] : re.NamedCapturingGroups()) {
    if (captures[index].data() == nullptr || captures[index].empty()) continue;
    std::string key = name;
    while (!key.empty() && key.back() >= '0' && key.back() <= '9') key.pop_back();  // type2
    if (!overwrite && fields->count(key)) continue;
    (*fields)[key] = std::string(captures[index].data(), captures[index].size());
  }
  return true;
}

}  // namespace

Symptom ClassifySymptom(std::string_view type, std::string_view message) {
  Symptom symptom;
  const size_t dot = type.rfind('.');
  symptom.exception_type = std::string(dot == std::string_view::npos ? type : type.substr(dot + 1));
  if (dot != std::string_view::npos)
    symptom.fields["exception_module"] = std::string(type.substr(0, dot));
  symptom.message = std::string(message);
  symptom.symptom_class = "other";
  for (const CompiledRule& rule : CompiledRules()) {
    if (rule.type && !RE2::FullMatch(symptom.exception_type, *rule.type)) continue;
    if (rule.message) {
      decltype(Symptom::fields) fields;
      if (!MatchFields(*rule.message, message, &fields, /*overwrite=*/true)) continue;
      for (auto& [key, value] : fields) symptom.fields[key] = std::move(value);
    }
    symptom.symptom_class = std::string(rule.symptom_class);
    break;
  }
  for (const auto& pattern : FieldPatterns()) {
    MatchFields(*pattern, message, &symptom.fields, /*overwrite=*/false);
  }
  return symptom;
}

Symptom ClassifiedSymptomFromText(std::string_view text) {
  const Symptom parsed = Symptom::FromText(text);
  if (parsed.exception_type.empty() && parsed.message.empty()) return parsed;
  Symptom symptom = ClassifySymptom(parsed.exception_type, parsed.message);
  // The classifier keeps the last component of a dotted type; a bare dotted name keeps it all.
  if (symptom.exception_type.empty() && !parsed.exception_type.empty())
    symptom.exception_type = parsed.exception_type;
  return symptom;
}

Symptom HangSymptom(std::string_view evidence) {
  Symptom symptom;
  symptom.message = std::string(evidence);
  symptom.symptom_class = "timeout-or-hang";
  return symptom;
}

int SecondaryLevel(const Symptom& symptom) {
  static const RE2* const peer = new RE2(
      R"re((?i)connection (?:closed|reset) by peer|broken pipe|communicator was aborted|NCCL communicator.*abort|peer (?:closed|disconnected)|ProcessGroup.*aborted)re");
  if (RE2::PartialMatch(symptom.message, *peer)) return 2;
  if (symptom.symptom_class == "timeout-or-hang") return 1;
  return 0;
}

}  // namespace smallfix
