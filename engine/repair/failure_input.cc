#include "engine/repair/failure_input.h"

#include <chrono>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "engine/base/read_file.h"
#include "engine/junit/junit_reader.h"

namespace smallfix {
namespace {

// The last `max_bytes` of a file, so that a 100 MB log costs bounded memory; a note when the
// file was longer. A file that cannot be read is bad input (the error names it).
absl::Status ReadTail(const std::string& path, size_t max_bytes, std::string& out,
                      std::vector<std::string>* notes) {
  size_t size = 0;
  absl::StatusOr<std::string> text = ReadFileTail(path, max_bytes, &size);
  if (!text.ok()) return absl::InvalidArgumentError(text.status().message());
  out = *std::move(text);
  if (notes != nullptr && size > out.size()) {
    notes->push_back(absl::StrFormat(
        "'%s' has %d bytes; only its last %d were read (the failure that matters is printed "
        "last)",
        path, size, out.size()));
  }
  return absl::OkStatus();
}

// `localize --test`: the command's own run is the failure, made under coverage when asked.
absl::StatusOr<FailureInput> FromTestRun(const std::string& repo, const FailureSource& source) {
  CaptureOptions options = source.run;
  options.coverage = source.coverage;
  absl::StatusOr<FailureCapture> run = CaptureFailure(repo, source.test, options);
  if (!run.ok()) return run.status();
  FailureInput input;
  input.cancelled = run->cancelled;
  input.passed = run->exit_code == 0 && !run->timed_out;
  input.text = std::move(run->output);
  input.junit_xml = std::move(run->junit_xml);
  input.notes = std::move(run->notes);
  if (!run->coverage_json.empty()) {
    absl::StatusOr<LineScores> scores = OchiaiFromRun(repo, run->coverage_json, input.junit_xml);
    if (scores.ok()) {
      input.coverage = *std::move(scores);
    } else {
      input.notes.push_back(std::string(scores.status().message()));
    }
  }
  if (run->timed_out && input.text.find("Traceback") == std::string::npos &&
      input.text.find("(most recent call first)") == std::string::npos) {
    // Nothing printed where it hung; say so rather than "no failure found".
    input.text += "\nTimeout (test command killed at the time limit)!\n";
  }
  return input;
}

// Per-line Ochiai scores from one single-process run of `source.coverage_test` (normally the
// broadest test command: Ochiai needs failing and passing tests). Empty, with a note saying
// why, when the run fails or no test fails: localization then reads the failure text alone.
LineScores CoverageScores(const std::string& repo, const FailureSource& source,
                          std::vector<std::string>& notes) {
  const auto start = std::chrono::steady_clock::now();
  const std::string& command = source.coverage_test;
  CaptureOptions options = source.run;
  options.coverage = true;
  if (source.progress) source.progress(Concat("running `", command, "` under coverage"));
  absl::StatusOr<FailureCapture> run = CaptureFailure(repo, command, options);
  if (!run.ok()) {
    notes.push_back(
        Concat("coverage: ", run.status().message(), "; ranked by the failure text alone"));
    return {};
  }
  for (const std::string& note : run->notes) notes.push_back(Concat("coverage: ", note));
  CaseTally tally;
  if (absl::StatusOr<std::vector<JUnitCase>> cases = ReadJUnit(run->junit_xml); cases.ok())
    tally = TallyCases(*cases);
  LineScores scores;
  if (!run->cancelled && !run->coverage_json.empty()) {
    absl::StatusOr<LineScores> ranked = OchiaiFromRun(repo, run->coverage_json, run->junit_xml);
    if (ranked.ok()) {
      scores = *std::move(ranked);
    } else {
      notes.push_back(Concat("coverage: ", ranked.status().message()));
    }
  }
  if (tally.failures == 0 || scores.empty()) {
    notes.push_back(Concat("coverage: `", command, "` showed no failing test under coverage",
                           source.world_size > 1 ? " (it runs single-process, without ranks)" : "",
                           "; ranked by the failure text alone"));
    return {};
  }
  if (source.progress) {
    source.progress(absl::StrFormat(
        "ranking lines by coverage over %d tests (%d failing) (%.1f s)", tally.tests,
        tally.failures,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
  }
  return scores;
}

}  // namespace

absl::StatusOr<FailureInput> GatherFailure(const std::string& repo, const FailureSource& source) {
  if (!source.test.empty()) return FromTestRun(repo, source);
  const size_t max_bytes = LocalizeOptions().max_input_bytes;
  FailureInput input;
  input.kind = source.kind;
  if (!source.path.empty()) {
    if (absl::Status read = ReadTail(source.path, max_bytes, input.text, &input.notes); !read.ok())
      return read;
  } else {
    input.text = source.text;
  }
  if (!source.junit_path.empty()) {
    absl::Status read = ReadTail(source.junit_path, max_bytes, input.junit_xml, nullptr);
    if (!read.ok()) return read;
  }
  if (source.coverage && !source.coverage_test.empty())
    input.coverage = CoverageScores(repo, source, input.notes);
  return input;
}

LocalizeOptions LocalizeOptionsFor(const FailureInput& input, int max_sites) {
  LocalizeOptions options;
  options.kind = input.kind;
  options.max_sites = max_sites;
  options.junit_xml = input.junit_xml;
  options.coverage_scores = input.coverage;
  return options;
}

}  // namespace smallfix
