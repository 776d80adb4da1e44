#include "validators/process/python_env.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "absl/strings/str_split.h"
#include "engine/base/concat.h"
#include "validators/pytest_command.h"

namespace smallfix {

absl::StatusOr<std::map<std::string, std::string>> PythonEnvironment(
    const std::string& shim_dir, const std::string& interpreter) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::exists(interpreter, error)) {
    return absl::NotFoundError(
        Concat("the Python interpreter ", interpreter,
               " does not exist (set `interpreter:` in .smallfix.yaml or --python)"));
  }
  fs::create_directories(shim_dir, error);
  // Scripts, not symlinks: a venv's python started through a link from elsewhere finds no
  // pyvenv.cfg beside the link and runs as the base interpreter, without the venv's packages.
  const std::string script = Concat("#!/bin/sh\nexec ", ShellQuote(interpreter), " \"$@\"\n");
  for (const char* name : {"python", "python3"}) {
    const fs::path shim = fs::path(shim_dir) / name;
    fs::remove(shim, error);
    std::ofstream(shim, std::ios::binary | std::ios::trunc) << script;
    fs::permissions(shim, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec,
                    error);
    if (error || !fs::exists(shim)) {
      return absl::InternalError(Concat("cannot create ", shim.string(), ": ", error.message()));
    }
  }
  // Then the interpreter's own folder, as activating its venv would: the console scripts a
  // test starts (torchrun, a project's launcher) are the venv's.
  const char* path = std::getenv("PATH");
  const std::string own = fs::path(interpreter).parent_path().string();
  return std::map<std::string, std::string>{
      {"PATH", Concat(shim_dir, ":", own.empty() ? "" : own + ":",
                      path != nullptr ? path : "/usr/bin:/bin")},
      {"PYTHONDONTWRITEBYTECODE", "1"},
      {"PYTHONUNBUFFERED", "1"},
  };
}

std::string DefaultInterpreter() {
  namespace fs = std::filesystem;
  const char* path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path != nullptr ? path : "", ':', absl::SkipEmpty())) {
    const fs::path candidate = fs::path(std::string(dir)) / "python3";
    std::error_code error;
    if (fs::is_regular_file(candidate, error) && ::access(candidate.c_str(), X_OK) == 0) {
      return fs::absolute(candidate, error).string();
    }
  }
  return "python3";
}

}  // namespace smallfix
