#ifndef SMALLFIX_ENGINE_REPAIR_SYMPTOM_INPUT_H_
#define SMALLFIX_ENGINE_REPAIR_SYMPTOM_INPUT_H_

#include <string_view>

#include "engine/localize/symptom.h"
#include "engine/patterns/match.h"

namespace smallfix {

// The one conversion from what localization classified to what templates match against.
SymptomInput ToSymptomInput(const Symptom& symptom);

// A symptom given as text ("Type: message": --symptom, a realfix fix, a template's example),
// classified as if localization had read it from a traceback. Text with neither a type nor a
// message gives an empty input (no symptom).
SymptomInput ClassifiedSymptomFromText(std::string_view text);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_SYMPTOM_INPUT_H_
