#ifndef SMALLFIX_ENGINE_BASE_SYMPTOM_CLASSES_H_
#define SMALLFIX_ENGINE_BASE_SYMPTOM_CLASSES_H_

#include <string>
#include <string_view>

namespace smallfix {

// The symptom classes localization gives a failure (engine/localize/symptom_rules.h says
// which exception gives which) and templates name in `class:`. One table, so a template's
// typo is an error at load time rather than a template that never matches;
// tests/patterns/symptom_classes_test.cc keeps the localization rules within it.
struct SymptomClassInfo {
  std::string_view name;
  std::string_view meaning;
};

inline constexpr SymptomClassInfo kSymptomClasses[] = {
    {"out-of-memory", "a device or host allocation failed"},
    {"timeout-or-hang", "a collective, store or test timed out or hung"},
    {"process-group-not-initialized", "a torch.distributed call before init_process_group"},
    {"none-attribute", "an attribute read on None"},
    {"module-missing-attribute", "a module lacks an attribute (a moved or renamed API)"},
    {"none-subscript", "None indexed"},
    {"none-iterate", "None iterated or unpacked"},
    {"none-call", "None called"},
    {"unexpected-kwarg", "a call passes a keyword the callee does not take"},
    {"missing-argument", "a call leaves out a required argument"},
    {"multiple-values", "a call gives one parameter twice"},
    {"import-error", "an import fails"},
    {"shape-mismatch", "tensor shapes do not fit"},
    {"dtype-device-mismatch", "tensors of different dtypes or devices meet"},
    {"key-error", "a missing key"},
    {"index-error", "an index out of range"},
    {"assertion", "an assertion failed"},
    {"zero-division", "a division by zero"},
    {"other", "any other exception"},
};

inline bool IsSymptomClass(std::string_view name) {
  for (const SymptomClassInfo& info : kSymptomClasses) {
    if (info.name == name) return true;
  }
  return false;
}

// "out-of-memory, timeout-or-hang, ...", for messages.
inline std::string SymptomClassList() {
  std::string list;
  for (const SymptomClassInfo& info : kSymptomClasses) {
    if (!list.empty()) list += ", ";
    list += info.name;
  }
  return list;
}

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_SYMPTOM_CLASSES_H_
