#include "engine/repair/report.h"

#include <set>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/patterns/sarif.h"

namespace smallfix {
namespace {

nlohmann::json StagesJson(const ValidationResult& validation) {
  nlohmann::json stages = nlohmann::json::array();
  for (const StageResult& stage : validation.stages) {
    stages.push_back({{"name", StageKindName(stage.kind)},
                      {"status", StageStatusName(stage.status)},
                      {"seconds", stage.seconds},
                      {"detail", stage.detail}});
  }
  return stages;
}

nlohmann::json FactsJson(const FactsSummary& facts) {
  return {{"read", facts.read},
          {"described", facts.described},
          {"note", facts.note},
          {"candidates", facts.added}};
}

std::string FactsText(const FactsSummary& facts) {
  if (!facts.read) return Concat("facts:   none: ", facts.note, "\n");
  std::string out = absl::StrFormat("facts:   %s; %d candidate(s) only they made\n",
                                    facts.described, facts.added);
  if (!facts.note.empty()) out += Concat("facts:   ", facts.note, "\n");
  return out;
}

}  // namespace

nlohmann::json ReportJson(const RepairReport& report) {
  nlohmann::json out;
  out["symptom"] = {{"type", report.symptom.exception_type},
                    {"message", report.symptom.message},
                    {"class", report.symptom.symptom_class}};
  out["sites"] = nlohmann::json::array();
  for (const Site& site : report.sites) {
    out["sites"].push_back(
        {{"file", site.file},
         {"line", site.line},
         {"function", site.function},
         {"score", site.score},
         {"symptom", site.symptom.empty() ? report.symptom.Text() : site.symptom},
         {"class", site.symptom_class},
         {"ranks", site.ranks}});
  }
  out["candidates"] = nlohmann::json::array();
  int rank = 0;
  for (const ValidatedCandidate& c : report.candidates) {
    const Candidate& candidate = c.scored.candidate;
    out["candidates"].push_back({{"rank", ++rank},
                                 {"template", candidate.template_id},
                                 {"family", candidate.family},
                                 {"summary", candidate.summary},
                                 {"file", candidate.file},
                                 {"line", candidate.line},
                                 {"diff", c.scored.diff},
                                 {"lines_changed", c.scored.lines_changed},
                                 {"score", c.scored.score},
                                 {"validation",
                                  {{"status", ValidationStatusName(c.validation.status)},
                                   {"stages", StagesJson(c.validation)},
                                   {"seconds", c.validation.seconds}}}});
    if (std::string fact = FactOf(candidate); !fact.empty())
      out["candidates"].back()["fact"] = fact;
  }
  out["stats"] = {{"candidates", report.generated},
                  {"validated", report.validated},
                  {"seconds", report.seconds},
                  {"reproduced", report.reproduced},
                  {"reproduction", report.reproduction},
                  {"reproduction_seconds", report.reproduction_seconds},
                  {"first_plausible_seconds", report.first_plausible_seconds},
                  {"warm", report.warm},
                  {"cancelled", report.cancelled}};
  out["sandbox"] = SandboxJson(report.sandbox);
  if (report.facts) out["facts"] = FactsJson(*report.facts);
  if (report.llm) {
    const LlmStats& stats = report.llm->stats;
    out["stats"]["llm"] = {
        {"model", report.llm->model},           {"calls", stats.calls},
        {"cache_hits", stats.cache_hits},       {"retries", stats.retries},
        {"prompt_tokens", stats.prompt_tokens}, {"completion_tokens", stats.completion_tokens}};
  }
  out["notes"] = report.notes;
  return out;
}

std::string ReportText(const RepairReport& report, bool validated) {
  std::string out = Concat(
      "failure: ", report.symptom.Text().empty() ? "(no symptom given)" : report.symptom.Text());
  if (!report.symptom.symptom_class.empty()) out += Concat(" [", report.symptom.symptom_class, "]");
  out += "\n";
  for (const Site& site : report.sites) {
    out += absl::StrFormat("site:    %s:%d%s (score %.2f)\n", site.file, site.line,
                           site.function.empty() ? "" : Concat(" in ", site.function), site.score);
  }
  for (const std::string& note : report.notes) out += Concat("note:    ", note, "\n");
  if (validated) out += SandboxText(report.sandbox);
  if (validated && !report.reproduction.empty()) {
    out += absl::StrFormat("unpatched run of the failing test: %s (%.1f s)\n", report.reproduction,
                           report.reproduction_seconds);
  }
  if (report.facts) out += FactsText(*report.facts);
  out += absl::StrFormat("%d candidate(s), %d validated\n", report.generated, report.validated);
  int rank = 0;
  for (const ValidatedCandidate& c : report.candidates) {
    ++rank;
    if (validated && c.validation.stages.empty() &&
        c.validation.status == ValidationStatus::kSkipped)
      continue;
    out += absl::StrFormat("  #%d %-34s %s:%d  %s", rank, c.scored.candidate.template_id,
                           c.scored.candidate.file, c.scored.candidate.line,
                           validated ? std::string(ValidationStatusName(c.validation.status))
                                     : absl::StrFormat("score %.2f", c.scored.score));
    for (const StageResult& stage : c.validation.stages) {
      out += absl::StrFormat("  %s:%s%s", StageKindName(stage.kind), StageStatusName(stage.status),
                             stage.detail.empty() ? "" : Concat(" (", stage.detail, ")"));
    }
    out += "\n";
    if (std::string fact = FactOf(c.scored.candidate); !fact.empty())
      out += Concat("      because ", fact, "\n");
  }
  const ValidatedCandidate* best = BestCandidate(report, validated);
  if (best != nullptr) {
    out += absl::StrFormat("\n%s patch (%s: %s):\n%s", validated ? "plausible" : "best",
                           best->scored.candidate.template_id, best->scored.candidate.summary,
                           best->scored.diff);
    if (validated && report.first_plausible_seconds >= 0) {
      out += absl::StrFormat("found in %.1f s (one run of the failing test: %.1f s)\n",
                             report.first_plausible_seconds, report.reproduction_seconds);
    }
  } else {
    out += validated ? "\nno plausible patch\n" : "\nno candidate\n";
  }
  return out;
}

nlohmann::json ReportSarif(const RepairReport& report) {
  nlohmann::json rules = nlohmann::json::array();
  nlohmann::json results = nlohmann::json::array();
  std::set<std::string> seen_rules;
  for (const ValidatedCandidate& c : report.candidates) {
    const Candidate& candidate = c.scored.candidate;
    if (seen_rules.insert(candidate.template_id).second) rules.push_back(SarifRule(candidate));
    const std::string status(ValidationStatusName(c.validation.status));
    results.push_back(SarifResult(candidate, status == "plausible" ? "error" : "warning",
                                  absl::StrFormat("%s (%s; validation: %s)", candidate.summary,
                                                  report.symptom.Text(), status),
                                  {{"score", c.scored.score}, {"validation", status}}));
  }
  return SarifLog(std::move(rules), std::move(results));
}

}  // namespace smallfix
