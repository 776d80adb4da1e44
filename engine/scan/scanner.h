#ifndef SMALLFIX_ENGINE_SCAN_SCANNER_H_
#define SMALLFIX_ENGINE_SCAN_SCANNER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/patterns/api_history.h"
#include "engine/patterns/match.h"
#include "engine/patterns/template.h"

namespace re2 {
class RE2;
}

namespace smallfix {

// A latent bug one template's `scan:` stanza flags, with the edit the template proposes.
struct Finding {
  std::string template_id;
  std::string message;  // the stanza's message
  std::string file;     // repo-relative
  int line = 0;         // 1-based, of the site capture
  int column = 0;       // 1-based byte column
  Candidate candidate;  // the proposed edit
  std::string diff;     // the edit as a unified diff (git apply at the repo root)
};

struct ScanReport {
  std::vector<Finding> findings;   // by file, then line, column and template
  int files = 0;                   // Python files listed
  int parsed = 0;                  // files some filter let through, parsed and matched
  std::vector<std::string> notes;  // files skipped and why (not UTF-8, unreadable, too large)
  double seconds = 0;
};

// Runs the templates that have a `scan:` stanza over files. Each stanza's filter is a
// regex a file must contain to be parsed at all, so most files cost one pass of RE2; the
// rest are parsed once and every template whose filter passed runs its query over the
// module. Immutable after Create and safe to use from several threads.
class Scanner {
 public:
  // Keeps the templates with a stanza; expands {removed_apis} in filters from `history`
  // (which may be null: then that placeholder matches nothing).
  static absl::StatusOr<Scanner> Create(const std::vector<Template>& templates,
                                        const ApiHistory* history);

  // The findings in one file's text (`path` is repo-relative, for the findings). `parsed`,
  // when given, says whether a filter let the file through. InvalidArgument for a file
  // that is not UTF-8 or is too large. `root`, when not empty, is where other files of
  // the repo are read from for edits beyond the file; `index`, when given, answers the
  // look-ups that resolve calls.
  absl::StatusOr<std::vector<Finding>> ScanText(const std::string& path, std::string text,
                                                bool* parsed = nullptr,
                                                const std::string& root = "",
                                                const RepoIndex* index = nullptr) const;

  // Every .py file under `root` (as the repo index lists them), on `jobs` threads. The repo
  // is indexed first when a template's look-ups resolve calls.
  absl::StatusOr<ScanReport> ScanRepo(const std::string& root, int jobs) const;

  // The same for `files` alone (repo-relative; a pre-commit hook's changed files): the repo is
  // still indexed as a whole when a look-up needs it, so a file gets the findings ScanRepo
  // gives it.
  absl::StatusOr<ScanReport> ScanFiles(const std::string& root, std::vector<std::string> files,
                                       int jobs) const;

  size_t template_count() const { return rules_.size(); }

 private:
  struct Rule {
    const Template* t;
    std::shared_ptr<const re2::RE2> filter;
  };
  Scanner(std::vector<Template> templates, std::shared_ptr<const ApiHistory> history);

  std::shared_ptr<const std::vector<Template>> templates_;
  std::shared_ptr<const ApiHistory> history_;
  std::vector<Rule> rules_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SCAN_SCANNER_H_
