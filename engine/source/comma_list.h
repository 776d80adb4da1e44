#ifndef SMALLFIX_ENGINE_SOURCE_COMMA_LIST_H_
#define SMALLFIX_ENGINE_SOURCE_COMMA_LIST_H_

#include <tree_sitter/api.h>

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace smallfix {

// Edits of a parenthesised, comma-separated list (a call's argument_list, a def's
// parameters) that keep its layout: one item per line stays one per line at the items'
// indentation, a trailing comma stays, comments stay with the items they follow.

// The list's items: named children that are not comments.
std::vector<TSNode> ListItems(TSNode list);

// Inserts `item` before `before` (one of the list's items), or at the end when nullopt.
absl::StatusOr<Edit> InsertListItem(const Document& document, TSNode list,
                                    std::optional<TSNode> before, std::string_view item);

// Removes `item` and the comma that separates it from its neighbours. An item alone on
// its line(s) takes its whole line(s), with any comment on them, away.
absl::StatusOr<Edit> RemoveListItem(const Document& document, TSNode list, TSNode item);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_COMMA_LIST_H_
