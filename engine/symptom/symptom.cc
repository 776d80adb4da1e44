#include "engine/symptom/symptom.h"

namespace smallfix {

std::string Symptom::Text() const {
  if (exception_type.empty()) return message;
  if (message.empty()) return exception_type;
  return exception_type + ": " + message;
}

Symptom Symptom::FromText(std::string_view text) {
  Symptom symptom;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  // "Type: message", where Type is a dotted identifier.
  const size_t colon = text.find(':');
  const std::string_view head = text.substr(0, colon);
  const bool dotted_name = !head.empty() && head.find_first_of(" \t'\"(") == std::string_view::npos;
  if (colon != std::string_view::npos && dotted_name) {
    symptom.exception_type = std::string(head);
    std::string_view rest = text.substr(colon + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    symptom.message = std::string(rest);
  } else if (dotted_name) {
    symptom.exception_type = std::string(text);  // "KeyboardInterrupt" alone
  } else {
    symptom.message = std::string(text);
  }
  return symptom;
}

}  // namespace smallfix
