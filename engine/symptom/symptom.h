#ifndef SMALLFIX_ENGINE_SYMPTOM_SYMPTOM_H_
#define SMALLFIX_ENGINE_SYMPTOM_SYMPTOM_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace smallfix {

// What went wrong, as the failure printed it, and its class (docs/design.md, "The pipeline").
// Localization classifies a failure into one (engine/localize/symptom.h); templates are matched
// against it (engine/patterns/match.h). Its own folder, so that neither of those two depends on
// the other for it.
struct Symptom {
  std::string exception_type;  // "AttributeError" (module qualifier dropped); "" for hangs
  std::string message;         // "'NoneType' object has no attribute 'div_'"
  // One of: none-attribute, none-subscript, none-iterate, none-call, unexpected-kwarg,
  // missing-argument, multiple-values, module-missing-attribute, import-error,
  // process-group-not-initialized, shape-mismatch, dtype-device-mismatch, key-error,
  // index-error, assertion, zero-division, timeout-or-hang, out-of-memory, other; "" when
  // unknown.
  std::string symptom_class;
  // Named fields that templates use: attr, module, name, kwarg, function, argument, key,
  // index, type, expected, got (only those that apply). Compared as a template's bindings are
  // (std::less<>: looked up by string_view too).
  std::map<std::string, std::string, std::less<>> fields;

  // "AttributeError: 'NoneType' object has no attribute 'div_'"; the message alone for hangs.
  std::string Text() const;

  // "Type: message" as a traceback's last line prints it, split and not classified (the
  // type kept whole, dotted or not); text that does not start with a type is all message.
  static Symptom FromText(std::string_view text);
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SYMPTOM_SYMPTOM_H_
