#ifndef SMALLFIX_ENGINE_LOCALIZE_REPO_SEARCH_H_
#define SMALLFIX_ENGINE_LOCALIZE_REPO_SEARCH_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/localize/localization.h"

namespace smallfix {

// A repo line that the text of a failure points to, found without a frame.
struct SearchHit {
  std::string file;   // repo-relative
  int line = 0;       // 1-based
  double weight = 0;  // in (0, 1]: how directly the line matches what the message names
  std::string why;    // "imports 'X' from 'pkg.mod'", for the report's notes
};

// Finds statements in the repo's own source from what an error message names, for failures
// pasted without frames in the repo (an exception line alone, a traceback of other
// packages only) and for the callers of a function that received a wrong object:
//   cannot import name 'X' from 'm' / No module named 'm'   the import statements
//   module 'm' has no attribute 'a'                            uses of "<alias>.a"
//   f() got an unexpected keyword argument 'k' (and missing /  calls of f, first those that
//   multiple-values arguments)                                 pass k
//   name 'x' is not defined                                    uses of x
//   'T' object has no attribute 'a'                            reads of ".a"
//   KeyError: 'k'                                              subscripts ["k"]
// Test files come after the package's files. Files are read once per instance, at most
// kMaxBytes in all (a note says when that cut the search).
class RepoSearch {
 public:
  static constexpr size_t kMaxBytes = size_t{64} << 20;
  static constexpr size_t kMaxFileBytes = size_t{2} << 20;

  RepoSearch(std::string repo_root, const std::vector<std::string>& files);
  // A search over given texts (repo-relative file -> source), touching no file system: for
  // tests and the fuzz target.
  static RepoSearch ForTexts(const std::map<std::string, std::string>& texts);

  std::vector<SearchHit> ForSymptom(const Symptom& symptom, size_t max_hits);
  // The defs of the function a call-signature TypeError names (multiple values, an unexpected
  // keyword, a missing argument), raised while Python binds the call, before the def's frame
  // exists: for a failure whose frames are only the tests'. Best first.
  std::vector<SearchHit> SignatureDefs(const Symptom& symptom, size_t max_hits);
  // Lines that call `function` (not its def), best first.
  std::vector<SearchHit> Callers(std::string_view function, size_t max_hits);
  // The text of `line` (1-based) of a repo file.
  std::optional<std::string> Line(const std::string& file, int line);
  // Parameter names of the def that encloses `line` (by indentation), and its name.
  std::vector<std::string> EnclosingParameters(const std::string& file, int line,
                                               std::string* function);

  // The lines of a repo file (empty when it cannot be read), and the files searched: the
  // package's first, then tests.
  const std::vector<std::string_view>& FileLines(const std::string& file) { return *Lines(file); }
  const std::vector<std::string>& files() const { return files_; }

  bool cut() const { return cut_; }

 private:
  const std::vector<std::string_view>* Lines(const std::string& file);

  std::string repo_root_;
  std::vector<std::string> files_;  // package files first, then tests
  std::map<std::string, std::string> texts_;
  std::map<std::string, std::vector<std::string_view>> lines_;
  size_t bytes_ = 0;
  bool cut_ = false;
  bool in_memory_ = false;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_REPO_SEARCH_H_
