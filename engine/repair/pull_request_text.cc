#include "engine/repair/pull_request_text.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/repair/model_lines.h"

namespace smallfix {
namespace {

constexpr size_t kMaxDiffChars = 20000;  // GitHub bodies hold 65536 characters
constexpr size_t kMaxBindingChars = 60;

// Inline code that survives backticks in the text.
std::string Code(std::string_view text) {
  std::string flat(text);
  for (char& c : flat) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  const std::string fence = flat.find('`') != std::string::npos ? "`` " : "`";
  const std::string close = fence == "`` " ? " ``" : "`";
  return Concat(fence, flat, close);
}

// A fenced block whose fence is longer than any run of backticks inside.
std::string Block(std::string_view language, std::string_view text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string body(text);
  if (body.size() > kMaxDiffChars)
    body = Concat(body.substr(0, kMaxDiffChars), "\n... (cut; the branch has all of it)\n");
  if (!body.empty() && body.back() != '\n') body += "\n";
  return Concat(fence, language, "\n", body, fence, "\n");
}

std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

const Site* SiteOf(const RepairReport& report, const Candidate& candidate) {
  for (const Site& site : report.sites) {
    if (site.file == candidate.file && site.line == candidate.line) return &site;
  }
  return nullptr;
}

std::string TestsRun(const ValidationPlan& plan) {
  std::string out = absl::StrFormat("- failing test: %s\n", Code(plan.failing_test));
  for (const std::string& test : plan.other_tests)
    out += absl::StrFormat("- must keep passing: %s\n", Code(test));
  out += absl::StrFormat("- runner: %s, %d rank%s\n", RunnerKindName(plan.runner.kind),
                         plan.runner.world_size, plan.runner.world_size == 1 ? "" : "s");
  return out;
}

// Which template made the patch and why it applies here.
std::string TemplateSection(const Candidate& candidate) {
  std::string out = "### Template\n\n";
  out += absl::StrFormat("%s (%s family): %s\n\n", Code(candidate.template_id), candidate.family,
                         candidate.summary);
  out += "Why it applies: ";
  if (candidate.symptom_score > 0) {
    out += absl::StrFormat("the failure is one this template answers (symptom match %.2f)",
                           candidate.symptom_score);
  } else {
    out += "it is a generic fix operator, tried because no specific template matched the failure";
  }
  out += absl::StrFormat(", and its pattern matched the code the failure points to (line %d)",
                         candidate.line);
  std::string bindings;
  for (const auto& [name, value] : candidate.bindings) {
    // The failure's own fields are shown above; the template's captures say what it saw.
    // `fact` gets its own sentence below.
    static constexpr std::string_view kFailureFields[] = {
        "exception", "fact", "file", "function", "line", "message", "type"};
    if (std::find(std::begin(kFailureFields), std::end(kFailureFields), name) !=
        std::end(kFailureFields))
      continue;
    if (value.empty() || value.size() > kMaxBindingChars || value.find('\n') != std::string::npos)
      continue;
    bindings += Concat(bindings.empty() ? "" : ", ", name, " = ", Code(value));
  }
  if (!bindings.empty()) out += Concat(" with ", bindings);
  out += ".\n\n";
  // What the failing run showed that the patch rests on (the look-ups that read runtime facts
  // bind it); one line, cut short.
  if (const std::string fact = FactOf(candidate);
      !fact.empty() && fact.find('\n') == std::string::npos) {
    out += Concat("What the failing run showed: ", fact.substr(0, 300), ".\n\n");
  }
  return out;
}

// A model's patch: every line it wrote, to be read as code from an untrusted author (the model
// was shown the issue's text, which anyone can write).
std::string ModelSection(const ValidatedCandidate& fix) {
  std::string out = "### Written by a language model\n\n";
  out += Concat("No template of smallfix wrote this patch: a language model proposed it (",
                Code(fix.scored.candidate.summary),
                "). It passed the same validation as a template's patch, but the model was "
                "shown this issue's text; read every line it wrote before merging:\n\n");
  std::string lines;
  for (const std::string& line : AddedLines(fix.scored.diff)) lines += line + "\n";
  out += Block("", lines.empty() ? "(it only removed lines)\n" : lines);
  return out + "\n";
}

// The body's "Validation" section: the reproduction, the stages, the tests and the rank.
std::string ValidationSection(const RepairReport& report, const ValidatedCandidate& fix,
                              const ValidationPlan& plan) {
  std::string out;
  out += "### Validation\n\n";
  if (!report.reproduction.empty()) {
    out += absl::StrFormat("Before the patch the failing test %s: %s (%.1f s).\n\n",
                           report.reproduced ? "failed as reported" : "could not be reproduced",
                           report.reproduction, report.reproduction_seconds);
  }
  out += "| stage | result | seconds | detail |\n| --- | --- | ---: | --- |\n";
  for (const StageResult& stage : fix.validation.stages) {
    out += absl::StrFormat("| %s | %s | %.1f | %s |\n", StageKindName(stage.kind),
                           StageStatusName(stage.status), stage.seconds, Cell(stage.detail));
  }
  out += "\n";
  out += TestsRun(plan);
  out += absl::StrFormat("- candidates: %d generated, %d validated; this one ranked %d\n\n",
                         report.generated, report.validated, [&] {
                           int rank = 1;
                           for (const ValidatedCandidate& c : report.candidates) {
                             if (&c == &fix) return rank;
                             ++rank;
                           }
                           return 0;
                         }());
  return out;
}

}  // namespace

std::string PatchId(const ValidatedCandidate& fix) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : fix.scored.diff) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return absl::StrFormat("%016x", hash);
}

std::string PatchMarker(std::string_view patch_id) {
  return Concat("<!-- smallfix:patch ", patch_id, " -->");
}

std::string NoPatchMarker(int issue, std::string_view engine_version) {
  return absl::StrFormat("<!-- smallfix:no-patch issue=%d engine=%s -->", issue,
                         std::string(engine_version));
}

std::string PullRequestTitle(int issue, const ValidatedCandidate& fix) {
  std::string summary = fix.scored.candidate.summary;
  if (summary.empty()) summary = fix.scored.candidate.template_id;
  // A title is no place for a model's words (it was shown text anyone can write).
  if (WrittenByModel(fix.scored.candidate))
    summary = absl::StrFormat("an edit a language model proposed at %s:%d",
                              fix.scored.candidate.file, fix.scored.candidate.line);
  while (!summary.empty() && (summary.back() == '.' || summary.back() == '\n')) summary.pop_back();
  return absl::StrFormat("Fix #%d: %s", issue, summary);
}

std::string PullRequestBody(const RepairReport& report, const ValidatedCandidate& fix,
                            const ValidationPlan& plan, int issue,
                            std::string_view engine_version) {
  const Candidate& candidate = fix.scored.candidate;
  const Site* site = SiteOf(report, candidate);
  std::string out = Concat(PatchMarker(PatchId(fix)), "\n");
  out += absl::StrFormat(
      "smallfix found a %d-line patch for #%d that makes the failing test pass and keeps the "
      "other tests passing.\n\n",
      fix.scored.lines_changed, issue);

  out += "### Failure\n\n";
  const std::string symptom = report.symptom.Text();
  out += absl::StrFormat(
      "%s%s\n\n", symptom.empty() ? "(no error message in the issue)" : Code(symptom),
      report.symptom.symptom_class.empty() ? "" : Concat(" (", report.symptom.symptom_class, ")"));

  out += "### Site\n\n";
  out += absl::StrFormat(
      "%s%s", Code(absl::StrFormat("%s:%d", candidate.file, candidate.line)),
      site != nullptr && !site->function.empty() ? Concat(" in ", Code(site->function)) : "");
  if (site != nullptr) out += absl::StrFormat(", localization score %.2f", site->score);
  out += "\n\n";

  out += WrittenByModel(candidate) ? ModelSection(fix) : TemplateSection(candidate);
  out += ValidationSection(report, fix, plan);
  out += "### Diff\n\n";
  out += Block("diff", fix.scored.diff);
  out += absl::StrFormat("\nFixes #%d\n\n", issue);
  out += absl::StrFormat(
      "---\nGenerated and validated by smallfix %s: %s, checked by running this repository's own "
      "tests. A second run updates this pull request instead of opening another.\n",
      std::string(engine_version),
      WrittenByModel(candidate) ? "a repair proposed by a language model"
                                : "a template-based repair");
  return out;
}

std::string NoPatchComment(const RepairReport& report, const ValidationPlan& plan, int issue,
                           std::string_view engine_version, std::string_view problem) {
  std::string out = Concat(NoPatchMarker(issue, engine_version), "\n");
  if (!problem.empty()) {
    out += Concat("smallfix could not work on this issue: ", problem, "\n");
    out += absl::StrFormat(
        "\n---\nGenerated by smallfix %s. It comments once per issue and version; a traceback or a "
        "failing test's output in the issue helps it most.\n",
        std::string(engine_version));
    return out;
  }
  out += "smallfix looked at this issue and found no patch that passes the tests.\n\n";
  const std::string symptom = report.symptom.Text();
  out += absl::StrFormat("- failure read from the issue: %s\n",
                         symptom.empty() ? "none (no traceback or error line)" : Code(symptom));
  if (report.sites.empty()) {
    out += "- sites: none found in this repository\n";
  } else {
    out += "- sites:";
    for (const Site& site : report.sites) {
      out += Concat(" ", Code(absl::StrFormat("%s:%d", site.file, site.line)));
    }
    out += "\n";
  }
  if (!report.reproduction.empty()) {
    out += absl::StrFormat("- the failing test before any patch: %s\n", report.reproduction);
  }
  out += absl::StrFormat("- candidates: %d generated, %d validated\n", report.generated,
                         report.validated);
  for (const ValidatedCandidate& c : report.candidates) {
    if (c.validation.stages.empty()) continue;
    const StageResult& last = c.validation.stages.back();
    out += absl::StrFormat(
        "  - %s at %s: %s (%s%s)\n", Code(c.scored.candidate.template_id),
        Code(absl::StrFormat("%s:%d", c.scored.candidate.file, c.scored.candidate.line)),
        ValidationStatusName(c.validation.status), StageKindName(last.kind),
        last.detail.empty() ? "" : Concat(": ", last.detail));
  }
  if (!plan.failing_test.empty()) out += Concat("\nTests used:\n", TestsRun(plan));
  out += absl::StrFormat(
      "\n---\nGenerated by smallfix %s. It comments once per issue and version; a traceback or a "
      "failing test's output in the issue helps it most.\n",
      std::string(engine_version));
  return out;
}

}  // namespace smallfix
