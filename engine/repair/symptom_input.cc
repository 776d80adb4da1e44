#include "engine/repair/symptom_input.h"

namespace smallfix {

SymptomInput ToSymptomInput(const Symptom& symptom) {
  SymptomInput input;
  input.type = symptom.exception_type;
  input.message = symptom.message;
  input.symptom_class = symptom.symptom_class;
  for (const auto& [key, value] : symptom.fields) input.fields[key] = value;
  return input;
}

SymptomInput ClassifiedSymptomFromText(std::string_view text) {
  const SymptomInput parsed = SymptomInput::FromText(text);
  if (parsed.type.empty() && parsed.message.empty()) return parsed;
  SymptomInput input = ToSymptomInput(ClassifySymptom(parsed.type, parsed.message));
  // The classifier keeps the last component of a dotted type; a bare dotted name keeps it all.
  if (input.type.empty() && !parsed.type.empty()) input.type = parsed.type;
  return input;
}

}  // namespace smallfix
