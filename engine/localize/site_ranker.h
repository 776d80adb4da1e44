#ifndef SMALLFIX_ENGINE_LOCALIZE_SITE_RANKER_H_
#define SMALLFIX_ENGINE_LOCALIZE_SITE_RANKER_H_

#include <optional>

#include "engine/localize/localization.h"
#include "engine/localize/path_mapper.h"
#include "engine/localize/repo_search.h"
#include "engine/localize/source_facts.h"
#include "engine/localize/trace.h"

namespace smallfix {

// Chooses the failure that matters and ranks the repo statements it points to.
//
// The failure that matters (the "primary" trace) is, in order of preference: not a
// launcher's own report (torchrun's ChildFailedError, spawn's ProcessRaisedException); the
// last link of an exception chain; not a victim of another rank (a peer's closed connection
// ranks below a timeout, which ranks below a real error); one that reaches repo code outside
// tests; for hangs, one stuck under a rank-dependent `if` (ranks that diverge there are why
// the others wait); complete rather than truncated; and finally the one printed last.
//
// Its innermost repo frame that is not a test file is the top site; outer repo frames,
// test frames and other traces follow with lower scores. The same statement reported by
// several ranks is one site that lists them. A printed warning ranks below any raised
// exception; a warning raised as an error blames the caller of `warnings.warn`.
//
// With `search` (the repo's own text), two more rules apply. When no frame lies in the repo
// (an exception line pasted alone, a traceback through other packages only), the sites are
// the statements the message names (repo_search.h), scored below any frame. When the top
// site reads an attribute of one of its function's parameters and the message says the
// object lacks it ("'CSVConfig' object has no attribute 'group'"), the caller that passed
// the object is ranked second: the next repo frame out, or the repo's calls of the function
// when the traceback does not show one.
//
// Returns nullopt when nothing in `parsed` names a failure (no exception, no stack dump, no
// hang line).
std::optional<Localization> RankSites(const ParsedFailure& parsed, const PathMapper& mapper,
                                      SourceFacts& facts, const LocalizeOptions& options,
                                      RepoSearch* search = nullptr);

// True for the exception types launchers raise about their children.
bool IsLauncherException(std::string_view exception_type);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_SITE_RANKER_H_
