#ifndef SMALLFIX_ENGINE_CLI_SYMPTOM_PARSER_H_
#define SMALLFIX_ENGINE_CLI_SYMPTOM_PARSER_H_

#include <string_view>

#include "engine/patterns/match.h"

namespace smallfix::cli {

// "Type: message" -> the symptom templates match on, classified the way localization
// classifies a traceback's last line (class and named fields).
SymptomInput ParseSymptom(std::string_view text);

}  // namespace smallfix::cli

#endif  // SMALLFIX_ENGINE_CLI_SYMPTOM_PARSER_H_
