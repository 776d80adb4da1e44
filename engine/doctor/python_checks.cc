#include "engine/doctor/python_checks.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "validators/process/process.h"

namespace smallfix::doctor {
namespace {

// Run by the interpreter: its version, and per module its version or why it does not import.
// One JSON line on stdout; nothing of the project is imported.
constexpr char kProbe[] = R"PY(
import importlib, json, sys
out = {"python": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable, "modules": {}}
for name in ("torch", "pytest", "coverage"):
    try:
        module = importlib.import_module(name)
        out["modules"][name] = {"version": str(getattr(module, "__version__", "?"))}
    except Exception as error:
        out["modules"][name] = {"error": "%s: %s" % (type(error).__name__, error)}
if "version" in out["modules"]["torch"]:
    try:
        import torch.distributed as dist
        out["distributed"] = bool(dist.is_available()) and bool(dist.is_gloo_available())
    except Exception:
        out["distributed"] = False
print(json.dumps(out))
)PY";

// The probe's JSON line: the last line of the output that parses as an object (torch may warn
// on stderr, which shares the pipe).
nlohmann::json ProbeAnswer(const std::string& output) {
  size_t end = output.size();
  while (end > 0) {
    const size_t start = output.rfind('\n', end - 1);
    const size_t from = start == std::string::npos ? 0 : start + 1;
    nlohmann::json line = nlohmann::json::parse(output.substr(from, end - from), nullptr, false);
    if (line.is_object() && line.contains("modules")) return line;
    if (start == std::string::npos) break;
    end = start;
  }
  return nlohmann::json();
}

std::string PipFix(const std::string& interpreter, const std::string& package) {
  return absl::StrFormat("%s -m pip install %s", interpreter, package);
}

}  // namespace

std::vector<Check> PythonChecks(const std::string& interpreter, const std::string& origin,
                                int world_size) {
  const std::string choose =
      "install Python 3 (apt-get install python3), or name one with --python or "
      "`interpreter:` in .smallfix.yaml";
  ProcessOptions probe;
  probe.argv = {interpreter, "-c", kProbe};
  probe.time_limit_seconds = 120;  // importing torch the first time on a cold disk
  absl::StatusOr<ProcessResult> ran = RunProcess(probe);
  if (!ran.ok()) {
    return {Missing("python",
                    Concat(interpreter, " (", origin, ") does not start: ", ran.status().message()),
                    choose)};
  }
  const nlohmann::json found = ProbeAnswer(ran->output);
  if (!ran->ok() || found.is_null()) {
    return {Missing("python",
                    Concat(interpreter, " (", origin, ") did not answer: ",
                           ran->timed_out ? "timed out" : ran->output.substr(0, 300)),
                    choose)};
  }
  std::vector<Check> checks;
  checks.push_back(
      Ok("python", absl::StrFormat("%s %s (%s)", interpreter, found.value("python", "?"), origin)));
  const nlohmann::json& modules = found["modules"];
  auto module = [&](const char* name, const std::string& fix, bool required,
                    const std::string& needed_for) {
    const nlohmann::json& m = modules.value(name, nlohmann::json::object());
    if (m.contains("version")) return Ok(name, Concat(m["version"].get<std::string>(), needed_for));
    const std::string detail =
        Concat("not importable by ", interpreter, " (", m.value("error", std::string("?")), ")");
    return required ? Missing(name, detail, fix) : Warn(name, Concat(detail, needed_for), fix);
  };
  checks.push_back(
      module("torch",
             Concat(PipFix(interpreter, "torch"),
                    " (CPU only: add --index-url https://download.pytorch.org/whl/cpu)"),
             true, ""));
  checks.push_back(module("pytest", PipFix(interpreter, "pytest"), true, ""));
  checks.push_back(module("coverage", PipFix(interpreter, "coverage"), false,
                          "; only repair --coverage uses it"));
  if (world_size > 1 && modules["torch"].contains("version")) {
    if (found.value("distributed", false)) {
      checks.push_back(
          Ok("torch.distributed", absl::StrFormat("gloo available for world size %d", world_size)));
    } else {
      checks.push_back(Missing("torch.distributed",
                               absl::StrFormat("world size %d needs torch.distributed with the "
                                               "gloo backend; this torch has none",
                                               world_size),
                               "install a torch build with distributed support (the PyPI wheels)"));
    }
  }
  return checks;
}

}  // namespace smallfix::doctor
