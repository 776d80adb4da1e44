#ifndef SMALLFIX_TESTS_INDEX_TEST_PATHS_H_
#define SMALLFIX_TESTS_INDEX_TEST_PATHS_H_

#include <string>

namespace smallfix::testing {

// tests/data/index/minirepo: a small package with relative imports, re-exports through
// __init__.py, inheritance across modules, a non-UTF-8 file and a build/ directory.
inline std::string MiniRepo() { return std::string(SMALLFIX_SOURCE_DIR) + "/tests/data/index/minirepo"; }

}  // namespace smallfix::testing

#endif  // SMALLFIX_TESTS_INDEX_TEST_PATHS_H_
