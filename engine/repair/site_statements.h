#ifndef SMALLFIX_ENGINE_REPAIR_SITE_STATEMENTS_H_
#define SMALLFIX_ENGINE_REPAIR_SITE_STATEMENTS_H_

#include <vector>

#include "engine/source/document.h"
#include "engine/source/edit.h"

namespace smallfix {

// Statements all of whose lines are sites of one fix (blank and comment lines aside), moved or
// removed as a whole.

// One statement taken from where it is and put just before another statement.
struct StatementMove {
  int from_line = 0;        // 1-based first line of the moved statement
  int to_line = 0;          // 1-based first line of the statement it now precedes
  std::vector<Edit> edits;  // the removal and the insertion (at the new place's indentation)
  // The move puts a value where code needs it: moved up, the statement assigns a name (or
  // attribute) that code between its new and its old place reads; moved down, it reads one
  // that code in between assigns (`model = wrap(model)` after `model = init(model)`).
  bool data_flow = false;
};

// Real fixes often move a statement: an assignment to before the branch that reads it, a
// wrap to after the setup it needs, a module-level import into the one function that may
// import it. For sites that are lines of one fix: every statement all of whose lines are
// sites, moved before each statement that starts on another site line (not its own place;
// before a def or class only for an import).
std::vector<StatementMove> StatementMoves(const Document& document, const std::vector<int>& lines);

// Fixes also delete: dead imports, a stale check, a helper no longer called. The removal of
// every outermost statement all of whose lines are sites, as one edit per statement; empty
// when there is none.
std::vector<Edit> SiteStatementRemovals(const Document& document, const std::vector<int>& lines);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_REPAIR_SITE_STATEMENTS_H_
