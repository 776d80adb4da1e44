#ifndef SMALLFIX_ENGINE_INDEX_FUNCTION_EXITS_H_
#define SMALLFIX_ENGINE_INDEX_FUNCTION_EXITS_H_

#include <tree_sitter/api.h>

#include <vector>

#include "engine/source/document.h"

namespace smallfix {

// How control leaves a def: its return statements, and whether it can run off its end
// (returning None without saying so).

// The def's return statements, not those of nested defs, lambdas or classes, in order.
std::vector<TSNode> ReturnStatements(TSNode def);

// True when control cannot go past `statement`: a return or raise, an if whose every branch
// (else included) ends so, or `while True:`.
bool EndsControl(const Document& document, TSNode statement);

// The last statement of the def's body when control can run off it; a null node otherwise.
TSNode FallThroughStatement(const Document& document, TSNode def);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_INDEX_FUNCTION_EXITS_H_
