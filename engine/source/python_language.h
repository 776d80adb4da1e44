#ifndef SMALLFIX_ENGINE_SOURCE_PYTHON_LANGUAGE_H_
#define SMALLFIX_ENGINE_SOURCE_PYTHON_LANGUAGE_H_

#include <tree_sitter/api.h>

namespace smallfix {

// The tree-sitter Python grammar compiled into smallfix (version pinned in package.json).
const TSLanguage* PythonLanguage();

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_SOURCE_PYTHON_LANGUAGE_H_
