#ifndef SMALLFIX_ENGINE_LOCALIZE_LOCALIZATION_H_
#define SMALLFIX_ENGINE_LOCALIZE_LOCALIZATION_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/symptom/symptom.h"

namespace smallfix {

// A place to repair: one statement of a repo file.
struct Site {
  std::string file;        // repo-relative, '/'-separated
  int line = 0;            // 1-based
  std::string function;    // enclosing def name (innermost, method name only) or "<module>"
  double score = 0;        // in [0, 1], higher is more likely
  std::vector<int> ranks;  // ranks that reported it (empty if not a multi-rank log)

  // The statement's byte range in the repo file as it was read, [start_byte, end_byte);
  // both 0 when the file could not be parsed. The repair stage re-parses the file and
  // finds the node with FindSiteStatement (site_statement.h), which checks this range.
  size_t start_byte = 0;
  size_t end_byte = 0;
  // The symptom of the failure that points here ("Type: message") and its class; sites
  // from other ranks' or chained failures may differ from Localization::symptom.
  std::string symptom;
  std::string symptom_class;
};

struct Localization {
  Symptom symptom;
  std::vector<Site> sites;  // best first
  // Things a user should know about how the input was read (truncation, binary bytes).
  std::vector<std::string> notes;
};

enum class FailureKind {
  kAuto,   // decide from the text (JUnit XML is recognised by its tags)
  kLog,    // a console log or pytest output
  kIssue,  // a GitHub issue body (markdown); read the same way as a log
  kJUnit,  // pytest JUnit XML
};

struct LocalizeOptions {
  FailureKind kind = FailureKind::kAuto;
  // Larger inputs are read from their last max_input_bytes: the failure that matters is
  // printed last, and this bounds time and memory on 100 MB logs.
  size_t max_input_bytes = size_t{64} << 20;
  // At most this many sites are returned.
  int max_sites = 10;
  // Optional JUnit XML from the same run (`--test` with pytest); its failures are read too.
  std::string junit_xml;
  // Optional per-line suspiciousness from coverage (Ochiai), keyed by (repo file, line);
  // combined with the traceback ranking (see coverage_ranking.h).
  std::map<std::pair<std::string, int>, double> coverage_scores;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_LOCALIZATION_H_
