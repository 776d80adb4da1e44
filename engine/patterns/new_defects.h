#ifndef SMALLFIX_ENGINE_PATTERNS_NEW_DEFECTS_H_
#define SMALLFIX_ENGINE_PATTERNS_NEW_DEFECTS_H_

// Defects a linter would flag in a candidate's code that the code before it did not have. A
// rewrite that writes one is not a fix, whatever the tests say: generic edits (a name swapped
// for its nearest neighbour, a donor's statement copied over) and guards written without
// regard to the loop around them pass weak tests with exactly such code, and most plausible
// patches of test-driven repair are of that kind (Tan et al., "Anti-patterns in Search-Based
// Program Repair", FSE 2016). The matcher drops them before they cost a test run.
//
// The checks, each a well-known lint:
//   - a value compared with itself: `a == a`, `a and a`, `a.issubset(a)`, `torch.equal(a, a)`
//     (pylint comparison-with-itself, clang-tidy misc-redundant-expression);
//   - an `else` that does what the branch before it does, or a conditional expression whose
//     arms are the same code (clang-tidy bugprone-branch-clone);
//   - a method of the class tested or returned as a bool without being called, `if self.ready:`
//     where `ready` is a def (pylint using-constant-test);
//   - `if <condition>: continue` in a `for` loop, or an `if` that is the loop's whole body, where
//     the condition reads nothing the loop changes: it runs every iteration or none, so it
//     belongs around the loop;
//   - a `*args` or `**kwargs` parameter that the def read and no longer does: what callers pass
//     there is dropped, usually with the call the def exists to make (pylint unused-argument,
//     for the catch-all parameters only, and only where the rewrite removed the last read).

#include <string>

#include "engine/source/document.h"

namespace smallfix {

// What the first defect `after` has more often than `before` is ("compares `a` with itself"),
// or "" when it has none new. The two are the same region of a file before and after a
// rewrite (matcher.cc parses the top-level statements an edit touches).
std::string NewDefect(const Document& before, const Document& after);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_PATTERNS_NEW_DEFECTS_H_
