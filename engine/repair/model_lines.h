#ifndef SMALLFIX_ENGINE_REPAIR_MODEL_LINES_H_
#define SMALLFIX_ENGINE_REPAIR_MODEL_LINES_H_

#include <string>
#include <vector>

#include "engine/patterns/match.h"

namespace smallfix {

// Whether a language model wrote the candidate's code (--llm-propose: template "llm"), rather
// than a template of this repository's catalogue.
bool WrittenByModel(const Candidate& candidate);

// The lines a unified diff adds, as "FILE:LINE: text" with LINE in the new file: what a
// reviewer must read with the care owed to code from an untrusted author.
std::vector<std::string> AddedLines(const std::string& diff);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_MODEL_LINES_H_
