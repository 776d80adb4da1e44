#include "engine/bench/realbugs/realbugs_results.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_format.h"

namespace smallfix::realbugs {
namespace {

using nlohmann::json;

json OrNull(const std::optional<int>& value) { return value ? json(*value) : json(nullptr); }

std::string Percent(int part, int whole) {
  return whole == 0 ? "-" : absl::StrFormat("%d (%.0f%%)", part, 100.0 * part / whole);
}

std::string TotalsRow(const std::string& name, const RealbugsTotals& t, bool verify) {
  if (verify) {
    return absl::StrFormat("| %s | %d | %d | %s | %d |\n", name, t.bugs, t.multi_process,
                           Percent(t.verified, t.bugs), t.errors);
  }
  return absl::StrFormat(
      "| %s | %d | %s | %s | %s | %s | %s | %s | %d |\n", name, t.bugs,
      Percent(t.plausible, t.bugs), Percent(t.correct, t.bugs), Percent(t.overfit, t.bugs),
      Percent(t.localized_top1, t.bugs), Percent(t.localized_top3, t.bugs),
      t.median_time_ratio ? absl::StrFormat("%.1f", *t.median_time_ratio) : "-", t.errors);
}

}  // namespace

RealbugsTotals Totals(const std::vector<RealBugResult>& results) {
  RealbugsTotals t;
  std::vector<double> ratios;
  for (const RealBugResult& r : results) {
    ++t.bugs;
    t.errors += !r.error.empty();
    t.verified += r.verified;
    t.multi_process += r.processes > 1;
    t.plausible += r.plausible;
    t.correct += r.correct;
    t.overfit += r.overfit;
    t.fix_generated += r.correct_rank.has_value();
    t.fix_by_llm += r.fix_template == "llm";
    t.localized_top1 += r.localization_rank && *r.localization_rank == 1;
    t.localized_top3 += r.localization_rank && *r.localization_rank <= 3;
    if (r.plausible && r.cold_seconds > 0 && r.first_plausible_seconds >= 0) {
      ratios.push_back(r.first_plausible_seconds / r.cold_seconds);
    }
  }
  if (!ratios.empty()) {
    std::sort(ratios.begin(), ratios.end());
    const size_t n = ratios.size();
    t.median_time_ratio = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  }
  return t;
}

namespace {

// --llm: the model that answered (the first bug's that names one), or why none did.
std::string LlmModel(const RealbugsRun& run) {
  for (const RealBugResult& r : run.results) {
    if (!r.llm_model.empty()) return r.llm_model;
  }
  return "(server not reached)";
}

// The line a markdown report gives the model, or "" without --llm.
std::string LlmLine(const RealbugsRun& run, const RealbugsTotals& t) {
  if (run.llm_propose < 0) return "";
  return absl::StrFormat(
      "With the model %s (ranking, and asked for up to %d edits a bug): its edit is the first "
      "candidate with the fix's syntax tree at %d bugs.\n\n",
      LlmModel(run), run.llm_propose, t.fix_by_llm);
}

}  // namespace

json RealbugsJson(const RealbugsRun& run) {
  json out = {{"mode", run.mode}, {"split", run.split}, {"engine", run.engine},
              {"jobs", run.jobs}, {"warm", run.warm},   {"seconds", run.seconds}};
  const RealbugsTotals t = Totals(run.results);
  out["totals"] = {
      {"bugs", t.bugs},
      {"errors", t.errors},
      {"verified", t.verified},
      {"multi_process", t.multi_process},
      {"plausible", t.plausible},
      {"correct", t.correct},
      {"overfit", t.overfit},
      {"localized_top1", t.localized_top1},
      {"localized_top3", t.localized_top3},
      {"fix_generated", t.fix_generated},
      {"fix_by_llm", t.fix_by_llm},
      {"median_time_ratio", t.median_time_ratio ? json(*t.median_time_ratio) : json(nullptr)}};
  if (run.llm_propose >= 0) out["llm"] = {{"model", LlmModel(run)}, {"propose", run.llm_propose}};
  out["bugs"] = json::array();
  for (const RealBugResult& r : run.results) {
    json bug = {{"id", r.id},           {"project", r.project},           {"family", r.family},
                {"split", r.split},     {"processes", r.processes},       {"source", r.source},
                {"outcome", r.outcome}, {"cold_seconds", r.cold_seconds}, {"symptom", r.symptom},
                {"seconds", r.seconds}};
    if (!r.error.empty()) bug["error"] = r.error;
    if (run.llm_propose >= 0) bug.update({{"llm_candidates", r.llm_candidates}});
    if (run.mode == "verify") {
      bug["verified"] = r.verified;
      if (!r.verify_detail.empty()) bug["detail"] = r.verify_detail;
    } else if (run.mode == "localize") {
      bug.update({{"localization_rank", OrNull(r.localization_rank)},
                  {"sites", r.sites},
                  {"candidates", r.candidates},
                  {"correct_rank", OrNull(r.correct_rank)},
                  {"fix_template", r.fix_template},
                  {"notes", r.notes}});
    } else {
      bug.update({{"plausible", r.plausible},
                  {"correct", r.correct},
                  {"overfit", r.overfit},
                  {"correct_rank", OrNull(r.correct_rank)},
                  {"fix_template", r.fix_template},
                  {"localization_rank", OrNull(r.localization_rank)},
                  {"sites", r.sites},
                  {"candidates", r.candidates},
                  {"validated", r.validated},
                  {"first_plausible_seconds", r.first_plausible_seconds},
                  {"budget_spent", r.budget_spent},
                  {"plausible_template", r.plausible_template},
                  {"plausible_diff", r.plausible_diff},
                  {"facts_read", r.facts_read},
                  {"fact_candidates", r.fact_candidates},
                  {"notes", r.notes}});
    }
    out["bugs"].push_back(std::move(bug));
  }
  return out;
}

namespace {

// --localize-only: localization alone, by project and per bug.
std::string LocalizeMarkdown(const RealbugsRun& run) {
  const RealbugsTotals all = Totals(run.results);
  std::string out = absl::StrFormat(
      "# realbugs localization, split %s%s\n\n%s| | bugs | localized top-1 | top-3 | fix "
      "generated | errors |\n|---|---:|---:|---:|---:|---:|\n",
      run.split, run.engine.empty() ? "" : ", engine " + run.engine, LlmLine(run, all));
  std::map<std::string, std::vector<RealBugResult>> by_project;
  for (const RealBugResult& r : run.results) by_project[r.project].push_back(r);
  auto row = [](const std::string& name, const RealbugsTotals& t) {
    return absl::StrFormat("| %s | %d | %s | %s | %s | %d |\n", name, t.bugs,
                           Percent(t.localized_top1, t.bugs), Percent(t.localized_top3, t.bugs),
                           Percent(t.fix_generated, t.bugs), t.errors);
  };
  out += row("all", all);
  for (const auto& [project, results] : by_project) out += row(project, Totals(results));
  out +=
      "\n| bug | split | symptom | outcome | localization | sites | candidates | fix's rank |\n"
      "|---|---|---|---|---:|---:|---:|---:|\n";
  for (const RealBugResult& r : run.results) {
    out +=
        absl::StrFormat("| %s | %s | %s | %s | %s | %d | %d | %s |\n", r.id, r.split,
                        r.symptom.substr(0, r.symptom.find(':')),
                        r.error.empty() ? r.outcome : "error: " + r.error.substr(0, 80),
                        r.localization_rank ? std::to_string(*r.localization_rank) : "-", r.sites,
                        r.candidates, r.correct_rank ? std::to_string(*r.correct_rank) : "-");
  }
  return out;
}

}  // namespace

std::string RealbugsMarkdown(const RealbugsRun& run) {
  if (run.mode == "localize") return LocalizeMarkdown(run);
  const bool verify = run.mode == "verify";
  std::string out = absl::StrFormat("# realbugs %s, split %s%s\n\n%s", run.mode, run.split,
                                    run.engine.empty() ? "" : ", engine " + run.engine,
                                    LlmLine(run, Totals(run.results)));
  const std::string header =
      verify ? "| | bugs | multi-process | verified | errors |\n|---|---:|---:|---:|---:|\n"
             : "| | bugs | plausible | correct | overfit | localized top-1 | top-3 | median first "
               "plausible / cold run | "
               "errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  out += header;
  std::map<std::string, std::vector<RealBugResult>> by_split, by_project;
  for (const RealBugResult& r : run.results) {
    by_split[r.split].push_back(r);
    by_project[r.project].push_back(r);
  }
  out += TotalsRow("all", Totals(run.results), verify);
  for (const auto& [split, results] : by_split)
    out += TotalsRow("split " + split, Totals(results), verify);
  for (const auto& [project, results] : by_project)
    out += TotalsRow(project, Totals(results), verify);
  out += verify ? "\n| bug | split | family | processes | source | verified | cold s | detail |\n"
                  "|---|---|---|---:|---|---|---:|---|\n"
                : "\n| bug | split | family | processes | outcome | localization | correct rank | "
                  "candidates | "
                  "validated | cold s | first plausible s "
                  "|\n|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n";
  for (const RealBugResult& r : run.results) {
    const std::string detail = !r.error.empty() ? r.error : r.verify_detail;
    if (verify) {
      out += absl::StrFormat("| %s | %s | %s | %d | %s | %s | %.1f | %s |\n", r.id, r.split,
                             r.family, r.processes, r.source, r.verified ? "yes" : "no",
                             r.cold_seconds, detail.substr(0, 120));
    } else {
      auto rank = [](const std::optional<int>& v) {
        return v ? std::to_string(*v) : std::string("-");
      };
      out += absl::StrFormat(
          "| %s | %s | %s | %d | %s | %s | %s | %d | %d | %.1f | %s |\n", r.id, r.split, r.family,
          r.processes, r.error.empty() ? r.outcome : "error: " + r.error.substr(0, 80),
          rank(r.localization_rank), rank(r.correct_rank), r.candidates, r.validated,
          r.cold_seconds,
          r.first_plausible_seconds >= 0 ? absl::StrFormat("%.1f", r.first_plausible_seconds)
                                         : "-");
    }
  }
  return out;
}

std::string RealbugsSummary(const RealbugsRun& run) {
  const RealbugsTotals t = Totals(run.results);
  if (run.mode == "verify") {
    return absl::StrFormat(
        "smallfix bench --realbugs --verify: %d of %d bugs verified (%d multi-process), %d errors, "
        "%.0f s\n",
        t.verified, t.bugs, t.multi_process, t.errors, run.seconds);
  }
  if (run.mode == "localize") {
    return absl::StrFormat(
        "smallfix bench --realbugs --localize-only (split %s): %d bugs in %.0f s\n"
        "  localization top-1 %s, top-3 %s; the fix among the candidates %s; errors %d\n",
        run.split, t.bugs, run.seconds, Percent(t.localized_top1, t.bugs),
        Percent(t.localized_top3, t.bugs), Percent(t.fix_generated, t.bugs), t.errors);
  }
  return absl::StrFormat(
      "smallfix bench --realbugs (split %s): %d bugs in %.0f s\n  plausible %s, correct %s, "
      "overfit %s\n"
      "  localization top-1 %s, top-3 %s; median first plausible / cold run %s; errors %d\n",
      run.split, t.bugs, run.seconds, Percent(t.plausible, t.bugs), Percent(t.correct, t.bugs),
      Percent(t.overfit, t.bugs), Percent(t.localized_top1, t.bugs),
      Percent(t.localized_top3, t.bugs),
      t.median_time_ratio ? absl::StrFormat("%.1f", *t.median_time_ratio) : "-", t.errors);
}

std::string RealbugsSvg(const RealbugsRun& run) {
  std::map<std::string, std::vector<RealBugResult>> by_project;
  for (const RealBugResult& r : run.results) by_project[r.project].push_back(r);
  const bool verify = run.mode == "verify";
  const std::vector<std::pair<std::string, std::string>> series =
      verify ? std::vector<std::pair<std::string, std::string>>{{"verified", "#2a9d8f"}}
             : std::vector<std::pair<std::string, std::string>>{
                   {"plausible", "#8ab17d"}, {"correct", "#2a9d8f"}, {"overfit", "#e76f51"}};
  const int row = 22 * static_cast<int>(series.size()) + 14, width = 640, left = 130, bar = 440;
  const int height = 40 + row * static_cast<int>(by_project.size()) + 20;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "font-family=\"sans-serif\" "
      "font-size=\"12\">\n<text x=\"10\" y=\"20\" font-size=\"14\">realbugs %s, split %s: share of "
      "each project's "
      "bugs</text>\n",
      width, height, run.mode, run.split);
  int y = 40;
  for (const auto& [project, results] : by_project) {
    const RealbugsTotals t = Totals(results);
    out += absl::StrFormat("<text x=\"10\" y=\"%d\">%s (%d)</text>\n", y + 14, project, t.bugs);
    for (const auto& [name, colour] : series) {
      const int value = name == "verified"    ? t.verified
                        : name == "plausible" ? t.plausible
                        : name == "correct"   ? t.correct
                                              : t.overfit;
      const int length = t.bugs ? bar * value / t.bugs : 0;
      out += absl::StrFormat(
          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"18\" fill=\"%s\"/><text x=\"%d\" "
          "y=\"%d\">%s %d</text>\n",
          left, y, length, colour, left + length + 4, y + 13, name, value);
      y += 22;
    }
    y += 14;
  }
  return out + "</svg>\n";
}

}  // namespace smallfix::realbugs
