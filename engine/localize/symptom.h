#ifndef SMALLFIX_ENGINE_LOCALIZE_SYMPTOM_H_
#define SMALLFIX_ENGINE_LOCALIZE_SYMPTOM_H_

#include <string_view>

#include "engine/localize/localization.h"

namespace smallfix {

// Classifies an exception by the table in symptom_rules.h and extracts its named fields.
// `type` may be qualified ("torch.cuda.OutOfMemoryError"); the symptom keeps the last part
// and records the module as the field "exception_module".
Symptom ClassifySymptom(std::string_view type, std::string_view message);

// A symptom given as text ("Type: message": --symptom, a realfix fix, a template's example),
// classified as if localization had read it from a traceback. Text with neither a type nor a
// message gives an empty symptom (no symptom).
Symptom ClassifiedSymptomFromText(std::string_view text);

// The symptom of a hang with no exception: class timeout-or-hang, `evidence` as message.
Symptom HangSymptom(std::string_view evidence);

// The "secondary" level of a symptom in a multi-rank failure: 2 for a peer's death seen from
// another rank (connection closed or reset), 1 for a timeout or hang, 0 otherwise. A rank
// that times out or loses its peer is usually a victim of the rank that raised first.
int SecondaryLevel(const Symptom& symptom);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_SYMPTOM_H_
