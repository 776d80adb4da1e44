#include "validators/python_env.h"

#include <cstdlib>
#include <filesystem>

#include "engine/base/concat.h"

namespace smallfix {

absl::StatusOr<std::map<std::string, std::string>> PythonEnvironment(const std::string& shim_dir,
                                                                    const std::string& interpreter) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::exists(interpreter, error)) {
    return absl::NotFoundError(Concat("the Python interpreter ", interpreter,
                                      " does not exist (set `interpreter:` in .smallfix.yaml or --python)"));
  }
  fs::create_directories(shim_dir, error);
  for (const char* name : {"python", "python3"}) {
    const fs::path link = fs::path(shim_dir) / name;
    fs::remove(link, error);
    fs::create_symlink(interpreter, link, error);
    if (error) return absl::InternalError(Concat("cannot create ", link.string(), ": ", error.message()));
  }
  const char* path = std::getenv("PATH");
  return std::map<std::string, std::string>{
      {"PATH", Concat(shim_dir, ":", path != nullptr ? path : "/usr/bin:/bin")},
      {"PYTHONDONTWRITEBYTECODE", "1"},
      {"PYTHONUNBUFFERED", "1"},
  };
}

}  // namespace smallfix
