#include "benchmarks/realfix/runner/fix_runner.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/base/temp_dir.h"
#include "engine/repair/pipeline.h"
#include "engine/source/tree_key.h"

namespace smallfix::realfix {
namespace {

using Clock = std::chrono::steady_clock;

// The fault lines as sites: sorted, unique, and within the parent's file (a pure insertion at
// the end names the line after the last one).
std::vector<RepairSite> Sites(const FixSpec& spec, const std::string& before) {
  const int last = std::max<int>(1, static_cast<int>(std::count(before.begin(), before.end(), '\n')) +
                                        (before.empty() || before.back() == '\n' ? 0 : 1));
  std::set<int> lines;
  for (int line : spec.fault_lines) lines.insert(std::min(line, last));
  std::vector<RepairSite> sites;
  for (int line : lines) sites.push_back(RepairSite{spec.file, line, 1.0});
  return sites;
}

// A candidate is the upstream fix when it changes only the fix's file and leaves it with the
// fixed file's syntax tree.
bool IsFix(const Candidate& candidate, const std::string& file, const std::string& fixed_key) {
  if (candidate.changes.empty()) return false;
  for (const FileChange& change : candidate.changes) {
    if (change.file != file) {
      if (TreeKey(change.file, change.after) != TreeKey(change.file, change.before)) return false;
      continue;
    }
    if (TreeKey(file, change.after) != fixed_key) return false;
  }
  return true;
}

absl::StatusOr<Attempt> Repair(const FixSpec& spec, const RunOptions& options, const std::string& root,
                               const std::vector<RepairSite>& sites, const std::string& symptom,
                               const std::string& fixed_key) {
  RepairRequest request;
  request.repo = root;
  request.sites = sites;
  request.one_fix = true;  // the sites are the fix's own lines
  request.symptom_text = symptom;
  request.templates_dir = options.templates_dir;
  request.validate = false;
  request.max_candidates = options.max_candidates;
  request.cancel = options.cancel;
  absl::StatusOr<RepairReport> report = RunRepair(request);
  if (!report.ok()) return report.status();
  Attempt attempt;
  attempt.candidates = report->generated;
  for (const auto& listed : report->candidates) ++attempt.generated_by_template[listed.scored.candidate.template_id];
  for (size_t i = 0; i < report->candidates.size(); ++i) {
    const Candidate& candidate = report->candidates[i].scored.candidate;
    if (IsFix(candidate, spec.file, fixed_key)) {
      attempt.rank = static_cast<int>(i) + 1;
      attempt.template_id = candidate.template_id;
      break;
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
  absl::StatusOr<int> files = MaterialiseTree(*git_dir, spec.parent_commit, spec.file, options.scope, temp->path());
  if (!files.ok()) return fail(files.status());
  result.files = *files;

  const std::string fixed_key = TreeKey(spec.file, *fixed);
  const std::vector<RepairSite> sites = Sites(spec, *before);
  absl::StatusOr<Attempt> without = Repair(spec, options, temp->path(), sites, "", fixed_key);
  if (!without.ok()) return fail(without.status());
  result.without_symptom = *without;
  result.with_symptom = *without;
  if (spec.symptom) {
    absl::StatusOr<Attempt> with = Repair(spec, options, temp->path(), sites, *spec.symptom, fixed_key);
    if (!with.ok()) return fail(with.status());
    result.with_symptom = *with;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace smallfix::realfix
