#include "engine/bench/realfix/realfix_results.h"

#include "absl/strings/str_format.h"
#include "engine/bench/realfix/realfix_totals.h"

namespace smallfix::realfix {
namespace {

using nlohmann::json;

json TallyJson(const Tally& t) {
  return {{"with_candidate", t.with_candidate},
          {"no_candidate", t.no_candidate},
          {"correct_at_1", t.at1},
          {"correct_at_5", t.at5},
          {"correct_at_10", t.at10},
          {"parts",
           {{"fixes", t.multi_part},
            {"all_made", t.all_parts},
            {"all_made_not_at_5", t.all_parts_not_at5},
            {"some_made", t.some_parts}}}};
}

json GroupJson(const GroupTotals& g) {
  return {{"fixes", g.fixes},
          {"errors", g.errors},
          {"symptom_given", g.symptom_given},
          {"with_symptom", TallyJson(g.with_symptom)},
          {"without_symptom", TallyJson(g.without_symptom)}};
}

json AttemptJson(const Attempt& a) {
  json out = {{"candidates", a.candidates}, {"rank", a.rank ? json(*a.rank) : json(nullptr)}};
  if (!a.template_id.empty()) out["template"] = a.template_id;
  out["generated_by_template"] = a.generated_by_template;
  if (!a.parts.empty()) {
    // Each part of the fix alone (fix_parts.h): does some candidate make it, and how high.
    json parts = json::array();
    int reproduced = 0;
    for (const PartOutcome& part : a.parts) {
      json one = {{"line", part.line}, {"rank", part.rank ? json(*part.rank) : json(nullptr)}};
      if (part.rank) {
        ++reproduced;
        one["template"] = part.template_id;
      }
      parts.push_back(std::move(one));
    }
    out["parts"] = {
        {"count", a.parts.size()}, {"reproduced", reproduced}, {"each", std::move(parts)}};
  }
  if (a.llm) {
    out["llm_model"] = a.llm_model;
    out["heuristic_rank"] = a.heuristic_rank ? json(*a.heuristic_rank) : json(nullptr);
    out["llm_edits"] = a.llm_edits;
  }
  return out;
}

// --llm: the model's order against the heuristic's over the runs without the symptom, and
// what its own edits added.
struct LlmTally {
  std::string model;
  int ran = 0, heuristic_at1 = 0, heuristic_at5 = 0, llm_at1 = 0, llm_at5 = 0, edits = 0,
      fixed_by_edit = 0;
};

LlmTally TallyLlm(const RealfixRun& run) {
  LlmTally t;
  for (const FixResult& r : run.results) {
    if (!r.error.empty()) continue;
    const Attempt& a = r.without_symptom;
    ++t.ran;
    if (t.model.empty()) t.model = a.llm_model;
    t.heuristic_at1 += a.heuristic_rank && *a.heuristic_rank <= 1;
    t.heuristic_at5 += a.heuristic_rank && *a.heuristic_rank <= 5;
    t.llm_at1 += a.rank && *a.rank <= 1;
    t.llm_at5 += a.rank && *a.rank <= 5;
    t.edits += a.llm_edits;
    t.fixed_by_edit += a.template_id == "llm";
  }
  return t;
}

std::string Percent(int n, int of) {
  return of > 0 ? absl::StrFormat("%d (%.1f%%)", n, 100.0 * n / of) : absl::StrFormat("%d", n);
}

// One table row per group: fixes, then for each condition no-candidate and correct@1/5/10,
// as shares of the fixes that ran.
std::string Row(const std::string& name, const GroupTotals& g) {
  const int ran = g.fixes - g.errors;
  std::string row =
      absl::StrFormat("| %s | %d | %d | %d |", name, g.fixes, g.errors, g.symptom_given);
  for (const Tally* t : {&g.without_symptom, &g.with_symptom}) {
    row += absl::StrFormat(" %s | %s | %s | %s |", Percent(t->no_candidate, ran),
                           Percent(t->at1, ran), Percent(t->at5, ran), Percent(t->at10, ran));
  }
  return row + "\n";
}

std::string Table(const std::string& title, const std::string& key,
                  const std::map<std::string, GroupTotals>& groups, const GroupTotals& all) {
  std::string out = absl::StrFormat("\n### %s\n\n", title);
  out += absl::StrFormat(
      "| %s | fixes | errors | symptom given | no candidate | correct@1 | correct@5 | correct@10 "
      "| no candidate (symptom) | correct@1 (symptom) | correct@5 (symptom) | correct@10 (symptom) "
      "|\n",
      key);
  out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& [name, group] : groups) out += Row(name, group);
  out += Row("**all**", all);
  return out;
}

}  // namespace

json RealfixJson(const RealfixRun& run) {
  const RealfixTotals totals = Tabulate(run.results);
  json out = {{"mode", "realfix"},
              {"split", run.split},
              {"fixes_file", run.fixes_file},
              {"tree", run.tree},
              {"jobs", run.jobs},
              {"seconds", run.seconds},
              {"totals", GroupJson(totals.all)}};
  for (auto [name, groups] :
       {std::pair{"by_family", &totals.by_family}, std::pair{"by_project", &totals.by_project},
        std::pair{"by_split", &totals.by_split}}) {
    out[name] = json::object();
    for (const auto& [key, group] : *groups) out[name][key] = GroupJson(group);
  }
  out["fixes"] = json::array();
  for (const FixResult& r : run.results) {
    json fix = {{"id", r.id},
                {"repo", r.repo},
                {"family", r.family},
                {"split", r.split},
                {"has_symptom", r.has_symptom},
                {"files", r.files},
                {"seconds", r.seconds}};
    if (!r.error.empty()) {
      fix["error"] = r.error;
    } else {
      fix["without_symptom"] = AttemptJson(r.without_symptom);
      fix["with_symptom"] = AttemptJson(r.with_symptom);
    }
    out["fixes"].push_back(std::move(fix));
  }
  if (run.llm) {
    const LlmTally t = TallyLlm(run);
    out["llm"] = {{"model", t.model},
                  {"propose", run.llm_propose},
                  {"ran", t.ran},
                  {"heuristic_correct_at_1", t.heuristic_at1},
                  {"heuristic_correct_at_5", t.heuristic_at5},
                  {"llm_correct_at_1", t.llm_at1},
                  {"llm_correct_at_5", t.llm_at5},
                  {"edits", t.edits},
                  {"fixed_by_edit", t.fixed_by_edit}};
  }
  return out;
}

std::string RealfixMarkdown(const RealfixRun& run) {
  const RealfixTotals totals = Tabulate(run.results);
  std::string out = absl::StrFormat(
      "## smallfix bench --realfix: split %s, %d fixes, %.0f s (--jobs %d, --tree %s)\n\n"
      "Repair at the fault lines (perfect localization), no validation. correct@k: a candidate "
      "among the first k "
      "leaves the file with the upstream fix's syntax tree. Shares are of the fixes that ran "
      "(fixes - errors). "
      "\"(symptom)\" columns pass the fix's symptom where it states one; fixes without one count "
      "with their "
      "symptom-less run.\n",
      run.split, static_cast<int>(run.results.size()), run.seconds, run.jobs, run.tree);
  if (run.llm) {
    const LlmTally t = TallyLlm(run);
    out += absl::StrFormat(
        "\nRanked by the model %s%s (the tables below are its order). Without the symptom, of %d "
        "fixes: "
        "correct@1 %d and correct@5 %d in the heuristic's order, %d and %d in the model's; the "
        "model "
        "proposed %d edits that became candidates, and its edit is the first right candidate for "
        "%d fixes.\n",
        t.model.empty() ? "(never reached)" : t.model,
        run.llm_propose > 0
            ? absl::StrFormat(", which also proposed up to %d edits a run", run.llm_propose)
            : "",
        t.ran, t.heuristic_at1, t.heuristic_at5, t.llm_at1, t.llm_at5, t.edits, t.fixed_by_edit);
  }
  out += Table("By family", "family", totals.by_family, totals.all);
  out += Table("By project", "project", totals.by_project, totals.all);
  out += Table("By split", "split", totals.by_split, totals.all);
  return out;
}

std::string RealfixSummary(const RealfixRun& run) {
  const RealfixTotals totals = Tabulate(run.results);
  const GroupTotals& g = totals.all;
  const int ran = g.fixes - g.errors;
  std::string out =
      absl::StrFormat("smallfix bench --realfix (split %s): %d fixes in %d s, %d errors\n",
                      run.split, g.fixes, static_cast<int>(run.seconds), g.errors);
  for (auto [name, t] : {std::pair{"without symptom", &g.without_symptom},
                         std::pair{"with symptom", &g.with_symptom}}) {
    out += absl::StrFormat("  %-16s no candidate %s, correct@1 %s, @5 %s, @10 %s\n", name,
                           Percent(t->no_candidate, ran), Percent(t->at1, ran),
                           Percent(t->at5, ran), Percent(t->at10, ran));
  }
  const Tally& t = g.without_symptom;
  if (t.multi_part > 0) {
    out += absl::StrFormat(
        "  parts (without symptom): %d fixes of 2+ parts; every part made alone by some candidate "
        "in %d (the "
        "whole not in the first 5 in %d), some parts in %d, none in %d\n",
        t.multi_part, t.all_parts, t.all_parts_not_at5, t.some_parts,
        t.multi_part - t.all_parts - t.some_parts);
  }
  return out;
}

}  // namespace smallfix::realfix
