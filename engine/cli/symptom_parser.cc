#include "engine/cli/symptom_parser.h"

namespace smallfix::cli {

SymptomInput ParseSymptom(std::string_view text) { return SymptomInput::FromText(text); }

}  // namespace smallfix::cli
