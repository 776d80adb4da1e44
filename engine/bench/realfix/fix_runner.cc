#include "engine/bench/realfix/fix_runner.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/temp_dir.h"
#include "engine/bench/realfix/fix_parts.h"
#include "engine/repair/pipeline.h"
#include "engine/repair/request_builder.h"
#include "engine/source/tree_key.h"

namespace smallfix::realfix {
namespace {

using Clock = std::chrono::steady_clock;

// What the model is shown as the failure of a fix that states no symptom.
constexpr char kNoFailure[] =
    "No failure report is available: the bug is in the code at the sites shown.";

// The fault lines as sites (FILE:LINE, as --site takes them): sorted, unique, and within the
// parent's file (a pure insertion at the end names the line after the last one).
std::vector<std::string> Sites(const FixSpec& spec, const std::string& before) {
  const int last =
      std::max<int>(1, static_cast<int>(std::count(before.begin(), before.end(), '\n')) +
                           (before.empty() || before.back() == '\n' ? 0 : 1));
  std::set<int> lines;
  for (int line : spec.fault_lines) lines.insert(std::min(line, last));
  std::vector<std::string> sites;
  for (int line : lines) sites.push_back(absl::StrFormat("%s:%d", spec.file, line));
  return sites;
}

// The syntax tree the candidate leaves the fix's file with, when it changes no other file's
// tree; nullopt otherwise. A candidate is the upstream fix when this is the fixed file's.
std::optional<std::string> KeyOfFile(const Candidate& candidate, const std::string& file) {
  std::optional<std::string> key;
  for (const FileChange& change : candidate.changes) {
    if (change.file != file) {
      if (TreeKey(change.file, change.after) != TreeKey(change.file, change.before))
        return std::nullopt;
      continue;
    }
    key = TreeKey(file, change.after);
  }
  return key;
}

// The syntax trees to look for: the fixed file's, and, for a fix of several parts, each part's.
struct Targets {
  std::string fixed_key;
  std::vector<std::pair<int, std::string>> part_keys;  // (the part's first parent line, tree)
};

// The parts of the fix whose trees differ from the parent's (one of comments only is no
// part); none unless two or more do.
absl::StatusOr<Targets> TargetsOf(const FixSpec& spec, const std::string& before,
                                  const std::string& fixed) {
  Targets targets;
  targets.fixed_key = TreeKey(spec.file, fixed);
  absl::StatusOr<std::vector<FixPart>> parts = FixParts(before, fixed);
  if (!parts.ok()) return parts.status();
  if (parts->size() < 2) return targets;
  const std::string before_key = TreeKey(spec.file, before);
  for (const FixPart& part : *parts) {
    std::string key = TreeKey(spec.file, part.target);
    if (key != before_key) targets.part_keys.emplace_back(part.hunk.old_start, std::move(key));
  }
  if (targets.part_keys.size() < 2) targets.part_keys.clear();
  return targets;
}

absl::StatusOr<Attempt> Repair(const FixSpec& spec, const RunOptions& options,
                               const std::string& root, const std::vector<std::string>& sites,
                               const std::string& symptom, const Targets& targets) {
  RepairInputs inputs;
  inputs.repo = root;
  inputs.read_repo_config = false;
  inputs.sites = sites;
  inputs.one_fix = true;  // the sites are the fix's own lines
  inputs.symptom = symptom;
  inputs.templates = options.templates_dir;
  inputs.no_validate = true;
  inputs.max_candidates = options.max_candidates;
  inputs.llm = options.llm;
  inputs.llm_failure = symptom.empty() ? kNoFailure : symptom;
  absl::StatusOr<RepairRequest> request = BuildRepairRequest(inputs, options.cancel);
  if (!request.ok()) return request.status();
  absl::StatusOr<RepairReport> report = RunRepair(*request);
  if (!report.ok()) return report.status();
  Attempt attempt;
  attempt.candidates = report->generated;
  for (const auto& listed : report->candidates)
    ++attempt.generated_by_template[listed.scored.candidate.template_id];
  for (const auto& [line, key] : targets.part_keys)
    attempt.parts.push_back(PartOutcome{line, std::nullopt, ""});
  size_t parts_found = 0;
  std::set<std::string> fixing_diffs;  // --llm: to find the fix in the heuristic's order
  // Each candidate's tree is made once, and (without --llm) only until the fix and every part are
  // found.
  for (size_t i = 0; i < report->candidates.size(); ++i) {
    if (!report->llm && attempt.rank && parts_found == attempt.parts.size()) break;
    const Candidate& candidate = report->candidates[i].scored.candidate;
    const std::optional<std::string> key = KeyOfFile(candidate, spec.file);
    if (!key) continue;
    const int rank = static_cast<int>(i) + 1;
    if (*key == targets.fixed_key) {
      fixing_diffs.insert(report->candidates[i].scored.diff);
      if (!attempt.rank) {
        attempt.rank = rank;
        attempt.template_id = candidate.template_id;
      }
    }
    for (size_t p = 0; p < attempt.parts.size(); ++p) {
      PartOutcome& part = attempt.parts[p];
      if (part.rank || *key != targets.part_keys[p].second) continue;
      part.rank = rank;
      part.template_id = candidate.template_id;
      ++parts_found;
    }
  }
  if (report->llm) {
    attempt.llm = true;
    attempt.llm_model = report->llm->model;
    attempt.llm_edits =
        attempt.generated_by_template.count("llm") ? attempt.generated_by_template["llm"] : 0;
    const std::vector<std::string>& heuristic = report->llm->heuristic_order;
    for (size_t h = 0; h < heuristic.size(); ++h) {
      if (fixing_diffs.count(heuristic[h])) {
        attempt.heuristic_rank = static_cast<int>(h) + 1;
        break;
      }
    }
  }
  return attempt;
}

}  // namespace

FixResult RunFix(const FixSpec& spec, const RunOptions& options) {
  FixResult result;
  result.id = spec.id;
  result.repo = spec.repo;
  result.family = spec.family;
  result.split = spec.split;
  result.has_symptom = spec.symptom.has_value();
  const Clock::time_point start = Clock::now();
  auto fail = [&](const absl::Status& status) {
    result.error = std::string(status.message());
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };
  absl::StatusOr<std::string> git_dir = FindProjectGit(options.mirror_root, spec.repo);
  if (!git_dir.ok()) return fail(git_dir.status());
  absl::StatusOr<std::string> before = ReadAtCommit(*git_dir, spec.parent_commit, spec.file);
  if (!before.ok()) return fail(before.status());
  absl::StatusOr<std::string> fixed = ReadAtCommit(*git_dir, spec.fix_commit, spec.file);
  if (!fixed.ok()) return fail(fixed.status());
  absl::StatusOr<TempDir> temp = TempDir::Create("smallfix-realfix");
  if (!temp.ok()) return fail(temp.status());
  absl::StatusOr<int> files =
      MaterialiseTree(*git_dir, spec.parent_commit, spec.file, options.scope, temp->path());
  if (!files.ok()) return fail(files.status());
  result.files = *files;

  absl::StatusOr<Targets> targets = TargetsOf(spec, *before, *fixed);
  if (!targets.ok()) return fail(targets.status());
  const std::vector<std::string> sites = Sites(spec, *before);
  absl::StatusOr<Attempt> without = Repair(spec, options, temp->path(), sites, "", *targets);
  if (!without.ok()) return fail(without.status());
  result.without_symptom = *without;
  result.with_symptom = *without;
  if (spec.symptom) {
    absl::StatusOr<Attempt> with =
        Repair(spec, options, temp->path(), sites, *spec.symptom, *targets);
    if (!with.ok()) return fail(with.status());
    result.with_symptom = *with;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace smallfix::realfix
