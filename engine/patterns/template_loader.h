#ifndef SMALLFIX_ENGINE_PATTERNS_TEMPLATE_LOADER_H_
#define SMALLFIX_ENGINE_PATTERNS_TEMPLATE_LOADER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/patterns/template.h"

namespace smallfix {

// Reads and checks one template file. Every problem is an InvalidArgument naming the
// file, the line and what is wrong: an unknown key, a missing one, a bad family or action,
// a query that does not compile, a regex that does not compile, a placeholder that nothing
// binds, an example without the parts it needs.
absl::StatusOr<Template> LoadTemplate(const std::string& path);

// Larger template files are refused unread.
inline constexpr uintmax_t kMaxTemplateBytes = 256 << 10;

// Loads every *.yaml under `dir` (recursively, sorted by path), except the API-history
// table. Fails on the first bad file, or on two templates with one id.
absl::StatusOr<std::vector<Template>> LoadTemplates(const std::string& dir);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_TEMPLATE_LOADER_H_
