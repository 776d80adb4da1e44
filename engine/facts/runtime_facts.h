#ifndef SMALLFIX_ENGINE_FACTS_RUNTIME_FACTS_H_
#define SMALLFIX_ENGINE_FACTS_RUNTIME_FACTS_H_

// What a failing test run knew at its exception, as the capture plugin
// (validators/fact_capture.py) writes it: the values in scope in the repo's frames, the
// exception's attributes, the real signature of a callee, the names an object really has, the
// installed versions, and the same values at one line in passing runs. The JSON is described in
// docs/runtime-facts.md; this is its one reader. A leaf: nothing of the project but absl.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// One value in scope (a local of a frame), as far as it could be read without running its code.
struct ValueFacts {
  std::string type;    // the class's name: "Parameter", "NoneType", "dict"
  std::string module;  // the class's module: "torch.nn.parameter", "builtins"
  bool none = false;   // the value is None
  // A Python literal equal to the value, for None, bools, ints, floats and short strings
  // ("0", "True", "'nccl'"): what a guard may compare with.
  std::optional<std::string> literal;
  std::optional<int64_t> len;                 // containers' len()
  std::optional<std::vector<int64_t>> shape;  // tensors (and anything with an int tuple .shape)
  std::optional<std::string> dtype;           // "torch.float32"
  std::optional<std::string> device;          // "cpu", "cuda:0", "meta"
  std::optional<bool> requires_grad;
  std::vector<std::string> attrs_none;  // its attributes that were None ("grad")
  std::string repr;                     // cut short; empty when the size cap dropped it
};

using Locals = std::map<std::string, ValueFacts>;

// One frame of the failing traceback whose file is inside the repo.
struct FrameFacts {
  std::string file;  // repo-relative, '/'-separated
  int line = 0;
  std::string function;
  Locals locals;
};

struct ExceptionFacts {
  std::string type;     // "AttributeError"
  std::string message;  // str(exception)
  // Its attributes that say what failed: AttributeError's "name" and "obj_type" (the type of the
  // object that lacked it), KeyError's "key", ... Strings as they are, other values as a short
  // repr.
  std::map<std::string, std::string> attrs;
};

struct ParameterFacts {
  std::string name;
  std::string kind;  // inspect's: POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, ...
  bool has_default = false;
  std::optional<std::string> default_repr;  // when it has one
};

// For a TypeError at a call: the object called there, resolved by name in the faulting frame.
struct CalleeFacts {
  std::string expression;  // what the repo's code called: "dist.all_reduce", "self.reducer.reduce"
  std::string qualname;    // where it is defined: "torch.distributed.distributed_c10d.all_reduce"
  std::string signature;   // str(inspect.signature(callee)); empty when it has none
  std::vector<ParameterFacts> parameters;
};

// For an AttributeError: the object whose attribute was missing, and what it really has.
struct AttributeOwnerFacts {
  std::string kind;                // "module", "class" or "instance"
  std::string qualname;            // "torch.cuda.amp", or the class's qualified name
  std::vector<std::string> names;  // dir() of the object, sorted
  std::vector<std::string> mro;    // qualified class names, the object's class first
};

// The values at the traced line in one passing test.
struct PassingFacts {
  std::string test;  // pytest's node id
  std::string file;
  int line = 0;
  Locals locals;
};

// torch.distributed's state when the exception was raised, when a process group was set up.
struct DistributedFacts {
  int rank = 0;
  int world_size = 1;
  std::string backend;
};

struct RuntimeFacts {
  int version = 1;
  std::string test;  // the failing test's node id ("tests/t.py::test_x"); empty outside pytest
  // Its type is empty when no test failed (a run of the regression tests, for `passing` only).
  ExceptionFacts exception;
  std::vector<FrameFacts> frames;  // outermost first, the raising frame last
  std::optional<CalleeFacts> callee;
  std::optional<AttributeOwnerFacts> attribute_owner;
  std::optional<DistributedFacts> distributed;
  // "python", "torch" and the distribution of each frame's package, name to version.
  std::map<std::string, std::string> versions;
  std::vector<PassingFacts> passing;
  // Why the capture of the failure stopped short (its own error), when it did.
  std::string capture_error;
};

// The version of the JSON this reader understands.
inline constexpr int kRuntimeFactsVersion = 1;

// Reads the capture's JSON. Errors name the field that has the wrong shape
// ("runtime facts: frames[0].locals.p.shape: expected an array of integers, got string").
// Fields it does not know are ignored; a missing optional field is its default.
absl::StatusOr<RuntimeFacts> ParseRuntimeFacts(std::string_view json);

// The innermost frame at `file`:`line`, or nullptr.
const FrameFacts* FindFrame(const RuntimeFacts& facts, std::string_view file, int line);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FACTS_RUNTIME_FACTS_H_
