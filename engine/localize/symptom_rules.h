#ifndef SMALLFIX_ENGINE_LOCALIZE_SYMPTOM_RULES_H_
#define SMALLFIX_ENGINE_LOCALIZE_SYMPTOM_RULES_H_

#include <string_view>

namespace smallfix {

// One row of the symptom table: when the exception type (without its module) fully
// matches `type` and the message partially matches `message` (both RE2; "" matches
// anything), the symptom has `symptom_class`, and the message's named groups become fields.
// The first matching row wins, so specific rows come before general ones.
struct SymptomRule {
  std::string_view type;
  std::string_view message;
  std::string_view symptom_class;
};

// Kept as data so that a new class is a new row, reviewed like a template.
inline constexpr SymptomRule kSymptomRules[] = {
    // Resource exhaustion and hangs first: their messages can also mention shapes or ranks.
    {"(?:.*OutOfMemoryError|MemoryError)", "", "out-of-memory"},
    {"",
     R"re((?i)out of memory|can't allocate memory|cannot allocate memory|CUBLAS_STATUS_ALLOC_FAILED)re",
     "out-of-memory"},
    {"(?:TimeoutError|DistStoreError|DistNetworkError)", "", "timeout-or-hang"},
    {"",
     R"re((?i)timed out|watchdog caught|collective operation timeout|timeout \(|deadline exceeded)re",
     "timeout-or-hang"},
    {"",
     R"re((?i)default process group has not been initialized|process group has not been initialized|init_process_group\b.*(?:first|before)|please make sure to call init_process_group)re",
     "process-group-not-initialized"},

    {"AttributeError", R"re(^'(?P<type>NoneType)' object has no attribute '(?P<attr>[^']+)')re",
     "none-attribute"},
    {"AttributeError",
     R"re(^(?:partially initialized )?module '(?P<module>[^']+)' has no attribute '(?P<attr>[^']+)')re",
     "module-missing-attribute"},
    {"TypeError", R"re(^'(?P<type>NoneType)' object is not subscriptable)re", "none-subscript"},
    {"TypeError",
     R"re(^(?:'(?P<type>NoneType)' object is not iterable|cannot unpack non-iterable (?P<type2>NoneType) object|argument of type 'NoneType' is not iterable))re",
     "none-iterate"},
    {"TypeError", R"re(^'(?P<type>NoneType)' object is not callable)re", "none-call"},
    {"TypeError",
     R"re(^(?P<function>[\w.<>]+)\(\) got an unexpected keyword argument '(?P<kwarg>[^']+)')re",
     "unexpected-kwarg"},
    {"TypeError",
     R"re(^(?P<function>[\w.<>]+)\(\) missing \d+ required (?:positional|keyword-only) arguments?: '(?P<argument>[^']+)')re",
     "missing-argument"},
    {"TypeError",
     R"re(^(?P<function>[\w.<>]+)\(\) got multiple values for (?:keyword )?argument '(?P<argument>[^']+)')re",
     "multiple-values"},
    {"(?:ModuleNotFoundError|ImportError)",
     R"re(^cannot import name '(?P<name>[^']+)' from '(?P<module>[^']+)')re", "import-error"},
    {"(?:ModuleNotFoundError|ImportError)", R"re(^No module named '(?P<module>[^']+)')re",
     "import-error"},
    {"(?:ModuleNotFoundError|ImportError)", "", "import-error"},

    {"",
     R"re(The size of tensor a \((?P<expected>\d+)\) must match the size of tensor b \((?P<got>\d+)\))re",
     "shape-mismatch"},
    {"", R"re(mat1 and mat2 shapes cannot be multiplied \((?P<expected>\w+) and (?P<got>\w+)\))re",
     "shape-mismatch"},
    {"",
     R"re(shape '\[[^\]]*\]' is invalid for input of size|size mismatch for|Sizes of tensors must match|shapes? .* (?:mismatch|cannot be broadcast|do not match)|Expected input batch_size|expected input with shape|must match the size|dimension out of range)re",
     "shape-mismatch"},
    {"", R"re(expected scalar type (?P<expected>\w+) but found (?P<got>\w+))re",
     "dtype-device-mismatch"},
    {"",
     R"re(Expected all tensors to be on the same device, but found at least two devices, (?P<expected>[\w:]+) and (?P<got>[\w:]+))re",
     "dtype-device-mismatch"},
    {"",
     R"re((?i)Expected all tensors to be on the same device|Input type \(.*\) and weight type \(.*\) should be the same|expected .*dtype|dtype mismatch|found dtype|expected (?:device|backend)|on different devices|must be on the same device)re",
     "dtype-device-mismatch"},

    {"KeyError", R"re(^'?(?P<key>.*?)'?$)re", "key-error"},
    {"IndexError", R"re(index (?P<index>-?\d+) is out of bounds)re", "index-error"},
    {"IndexError", "", "index-error"},
    {"AssertionError", "", "assertion"},
    {"ZeroDivisionError", "", "zero-division"},
};

// Fields that any message may carry, whatever its class.
inline constexpr std::string_view kFieldPatterns[] = {
    R"re('(?P<type>[\w.]+)' object (?:is not|has no))re",
    R"re(^(?P<function>[\w.<>]+)\(\) (?:got|missing|takes))re",
};

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_SYMPTOM_RULES_H_
