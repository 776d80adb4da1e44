#ifndef SMALLFIX_ENGINE_LOCALIZE_SITE_STATEMENT_H_
#define SMALLFIX_ENGINE_LOCALIZE_SITE_STATEMENT_H_

#include <tree_sitter/api.h>

#include <optional>

#include "engine/localize/localization.h"
#include "engine/source/document.h"

namespace smallfix {

// The statement node a Site names in `document` (the site's file, parsed by the caller):
// the statement at the site's recorded byte range when the file is unchanged, else the
// innermost statement at its line. nullopt when the line is not in the file.
std::optional<TSNode> FindSiteStatement(const Document& document, const Site& site);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_SITE_STATEMENT_H_
