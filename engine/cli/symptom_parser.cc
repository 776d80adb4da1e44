#include "engine/cli/symptom_parser.h"

#include "engine/localize/symptom.h"

namespace smallfix::cli {

SymptomInput ParseSymptom(std::string_view text) {
  SymptomInput input = SymptomInput::FromText(text);
  if (input.type.empty() && input.message.empty()) return input;
  const Symptom classified = ClassifySymptom(input.type, input.message);
  input.symptom_class = classified.symptom_class;
  for (const auto& [key, value] : classified.fields) input.fields[key] = value;
  return input;
}

}  // namespace smallfix::cli
