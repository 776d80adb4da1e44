#ifndef SMALLFIX_ENGINE_LOCALIZE_SOURCE_FACTS_H_
#define SMALLFIX_ENGINE_LOCALIZE_SOURCE_FACTS_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "engine/source/document.h"

namespace smallfix {

// What localization asks of a repo file at a line, answered from its syntax tree (the log
// alone cannot say: it may be truncated, and pytest's long style prints no function names).
struct StatementFacts {
  std::string function = "<module>";  // innermost enclosing def, or "<module>"
  size_t start_byte = 0;              // the statement at the line, [start_byte, end_byte)
  size_t end_byte = 0;
  // The statement sits under an `if` whose condition depends on the rank ("if rank == 0:"),
  // the usual reason why ranks reach different collectives and hang.
  bool under_rank_condition = false;
};

// Parses repo files on demand and keeps them for the rest of one localization.
class SourceFacts {
 public:
  explicit SourceFacts(std::string repo_root) : repo_root_(std::move(repo_root)) {}

  // Facts about `line` (1-based) of `file` (repo-relative); nullopt when the file cannot be
  // read or parsed, or has no such line.
  std::optional<StatementFacts> At(const std::string& file, int line);

  // The parsed file (repo-relative), or nullptr when it cannot be read or parsed.
  const Document* Load(const std::string& file);

 private:
  std::string repo_root_;
  std::map<std::string, std::optional<Document>> documents_;
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_SOURCE_FACTS_H_
