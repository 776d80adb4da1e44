#include "engine/source/python_language.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace smallfix {

const TSLanguage* PythonLanguage() { return tree_sitter_python(); }

}  // namespace smallfix
