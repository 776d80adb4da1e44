#include "engine/facts/runtime_facts.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine/base/status_macros.h"
#include "nlohmann/json.hpp"

namespace smallfix {
namespace {

using Json = nlohmann::json;

absl::Status Wrong(std::string_view path, std::string_view expected, const Json& got) {
  return absl::InvalidArgumentError(
      absl::StrFormat("runtime facts: %s: expected %s, got %s", path, expected, got.type_name()));
}

// One JSON object being read, with the path that names it in errors ("frames[2].locals.p").
// Absent keys and nulls leave the field at its default unless the field is required.
class Fields {
 public:
  static absl::StatusOr<Fields> Of(const Json& value, std::string path) {
    if (!value.is_object()) return Wrong(path, "an object", value);
    return Fields(value, std::move(path));
  }

  const Json* Get(std::string_view key) const {
    auto it = object_->find(key);
    return it == object_->end() || it->is_null() ? nullptr : &*it;
  }
  std::string PathOf(std::string_view key) const {
    return path_.empty() ? std::string(key) : absl::StrFormat("%s.%s", path_, key);
  }
  absl::Status Missing(std::string_view key) const {
    return absl::InvalidArgumentError(
        absl::StrFormat("runtime facts: %s: missing (required)", PathOf(key)));
  }

  absl::Status String(std::string_view key, std::string& out, bool required = false) const {
    const Json* value = Get(key);
    if (value == nullptr) return required ? Missing(key) : absl::OkStatus();
    if (!value->is_string()) return Wrong(PathOf(key), "a string", *value);
    out = value->get<std::string>();
    return absl::OkStatus();
  }
  absl::Status String(std::string_view key, std::optional<std::string>& out) const {
    if (Get(key) == nullptr) return absl::OkStatus();
    std::string text;
    SMALLFIX_RETURN_IF_ERROR(String(key, text));
    out = std::move(text);
    return absl::OkStatus();
  }
  absl::Status Int(std::string_view key, int64_t& out, bool required = false) const {
    const Json* value = Get(key);
    if (value == nullptr) return required ? Missing(key) : absl::OkStatus();
    if (!value->is_number_integer()) return Wrong(PathOf(key), "an integer", *value);
    out = value->get<int64_t>();
    return absl::OkStatus();
  }
  absl::Status Int(std::string_view key, int& out, bool required = false) const {
    int64_t wide = out;
    SMALLFIX_RETURN_IF_ERROR(Int(key, wide, required));
    out = static_cast<int>(wide);
    return absl::OkStatus();
  }
  absl::Status Int(std::string_view key, std::optional<int64_t>& out) const {
    if (Get(key) == nullptr) return absl::OkStatus();
    int64_t number = 0;
    SMALLFIX_RETURN_IF_ERROR(Int(key, number));
    out = number;
    return absl::OkStatus();
  }
  absl::Status Bool(std::string_view key, bool& out) const {
    const Json* value = Get(key);
    if (value == nullptr) return absl::OkStatus();
    if (!value->is_boolean()) return Wrong(PathOf(key), "true or false", *value);
    out = value->get<bool>();
    return absl::OkStatus();
  }
  absl::Status Bool(std::string_view key, std::optional<bool>& out) const {
    if (Get(key) == nullptr) return absl::OkStatus();
    bool flag = false;
    SMALLFIX_RETURN_IF_ERROR(Bool(key, flag));
    out = flag;
    return absl::OkStatus();
  }
  absl::Status Strings(std::string_view key, std::vector<std::string>& out) const;
  absl::Status Ints(std::string_view key, std::optional<std::vector<int64_t>>& out) const;
  absl::Status StringMap(std::string_view key, std::map<std::string, std::string>& out) const;

 private:
  Fields(const Json& object, std::string path) : object_(&object), path_(std::move(path)) {}
  const Json* object_;
  std::string path_;
};

absl::Status Fields::Strings(std::string_view key, std::vector<std::string>& out) const {
  const Json* value = Get(key);
  if (value == nullptr) return absl::OkStatus();
  if (!value->is_array()) return Wrong(PathOf(key), "an array of strings", *value);
  for (const Json& item : *value) {
    if (!item.is_string()) return Wrong(PathOf(key), "an array of strings", item);
    out.push_back(item.get<std::string>());
  }
  return absl::OkStatus();
}

absl::Status Fields::Ints(std::string_view key, std::optional<std::vector<int64_t>>& out) const {
  const Json* value = Get(key);
  if (value == nullptr) return absl::OkStatus();
  if (!value->is_array()) return Wrong(PathOf(key), "an array of integers", *value);
  out.emplace();
  for (const Json& item : *value) {
    if (!item.is_number_integer()) return Wrong(PathOf(key), "an array of integers", item);
    out->push_back(item.get<int64_t>());
  }
  return absl::OkStatus();
}

absl::Status Fields::StringMap(std::string_view key,
                               std::map<std::string, std::string>& out) const {
  const Json* value = Get(key);
  if (value == nullptr) return absl::OkStatus();
  if (!value->is_object()) return Wrong(PathOf(key), "an object of strings", *value);
  for (const auto& [name, item] : value->items()) {
    if (!item.is_string()) return Wrong(PathOf(key) + "." + name, "a string", item);
    out[name] = item.get<std::string>();
  }
  return absl::OkStatus();
}

absl::StatusOr<ValueFacts> ReadValue(const Json& json, std::string path) {
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(json, std::move(path)));
  ValueFacts value;
  SMALLFIX_RETURN_IF_ERROR(fields.String("type", value.type, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("module", value.module));
  SMALLFIX_RETURN_IF_ERROR(fields.Bool("none", value.none));
  SMALLFIX_RETURN_IF_ERROR(fields.String("literal", value.literal));
  SMALLFIX_RETURN_IF_ERROR(fields.Int("len", value.len));
  SMALLFIX_RETURN_IF_ERROR(fields.Ints("shape", value.shape));
  SMALLFIX_RETURN_IF_ERROR(fields.String("dtype", value.dtype));
  SMALLFIX_RETURN_IF_ERROR(fields.String("device", value.device));
  SMALLFIX_RETURN_IF_ERROR(fields.Bool("requires_grad", value.requires_grad));
  SMALLFIX_RETURN_IF_ERROR(fields.Strings("attrs_none", value.attrs_none));
  SMALLFIX_RETURN_IF_ERROR(fields.String("repr", value.repr));
  return value;
}

absl::StatusOr<Locals> ReadLocals(const Fields& fields) {
  Locals locals;
  const Json* json = fields.Get("locals");
  if (json == nullptr) return locals;
  if (!json->is_object()) return Wrong(fields.PathOf("locals"), "an object", *json);
  for (const auto& [name, item] : json->items()) {
    SMALLFIX_ASSIGN_OR_RETURN(locals[name], ReadValue(item, fields.PathOf("locals." + name)));
  }
  return locals;
}

// Each item of the array at `key`, read by `read(item, path)`.
template <typename T, typename ReadItem>
absl::Status ReadArray(const Fields& fields, std::string_view key, ReadItem read,
                       std::vector<T>& out) {
  const Json* json = fields.Get(key);
  if (json == nullptr) return absl::OkStatus();
  if (!json->is_array()) return Wrong(fields.PathOf(key), "an array", *json);
  for (size_t i = 0; i < json->size(); ++i) {
    SMALLFIX_ASSIGN_OR_RETURN(T item,
                              read((*json)[i], absl::StrFormat("%s[%d]", fields.PathOf(key), i)));
    out.push_back(std::move(item));
  }
  return absl::OkStatus();
}

absl::StatusOr<FrameFacts> ReadFrame(const Json& json, std::string path) {
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(json, std::move(path)));
  FrameFacts frame;
  SMALLFIX_RETURN_IF_ERROR(fields.String("file", frame.file, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.Int("line", frame.line, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("function", frame.function));
  SMALLFIX_ASSIGN_OR_RETURN(frame.locals, ReadLocals(fields));
  return frame;
}

absl::StatusOr<PassingFacts> ReadPassing(const Json& json, std::string path) {
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(json, std::move(path)));
  PassingFacts passing;
  SMALLFIX_RETURN_IF_ERROR(fields.String("test", passing.test, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("file", passing.file, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.Int("line", passing.line, /*required=*/true));
  SMALLFIX_ASSIGN_OR_RETURN(passing.locals, ReadLocals(fields));
  return passing;
}

absl::StatusOr<ParameterFacts> ReadParameter(const Json& json, std::string path) {
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(json, std::move(path)));
  ParameterFacts parameter;
  SMALLFIX_RETURN_IF_ERROR(fields.String("name", parameter.name, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("kind", parameter.kind));
  SMALLFIX_RETURN_IF_ERROR(fields.Bool("has_default", parameter.has_default));
  SMALLFIX_RETURN_IF_ERROR(fields.String("default", parameter.default_repr));
  return parameter;
}

absl::Status ReadCallee(const Fields& top, RuntimeFacts& facts) {
  const Json* json = top.Get("callee");
  if (json == nullptr) return absl::OkStatus();
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(*json, "callee"));
  CalleeFacts callee;
  SMALLFIX_RETURN_IF_ERROR(fields.String("qualname", callee.qualname, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("expression", callee.expression));
  SMALLFIX_RETURN_IF_ERROR(fields.String("signature", callee.signature));
  SMALLFIX_RETURN_IF_ERROR(ReadArray(fields, "parameters", ReadParameter, callee.parameters));
  facts.callee = std::move(callee);
  return absl::OkStatus();
}

absl::Status ReadAttributeOwner(const Fields& top, RuntimeFacts& facts) {
  const Json* json = top.Get("attribute_owner");
  if (json == nullptr) return absl::OkStatus();
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(*json, "attribute_owner"));
  AttributeOwnerFacts owner;
  SMALLFIX_RETURN_IF_ERROR(fields.String("type", owner.kind, /*required=*/true));
  if (owner.kind != "module" && owner.kind != "class" && owner.kind != "instance") {
    return absl::InvalidArgumentError(absl::StrFormat(
        "runtime facts: attribute_owner.type: expected module, class or instance, got '%s'",
        owner.kind));
  }
  SMALLFIX_RETURN_IF_ERROR(fields.String("qualname", owner.qualname));
  SMALLFIX_RETURN_IF_ERROR(fields.Strings("names", owner.names));
  SMALLFIX_RETURN_IF_ERROR(fields.Strings("mro", owner.mro));
  facts.attribute_owner = std::move(owner);
  return absl::OkStatus();
}

absl::Status ReadDistributed(const Fields& top, RuntimeFacts& facts) {
  const Json* json = top.Get("distributed");
  if (json == nullptr) return absl::OkStatus();
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(*json, "distributed"));
  DistributedFacts distributed;
  SMALLFIX_RETURN_IF_ERROR(fields.Int("rank", distributed.rank, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.Int("world_size", distributed.world_size, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("backend", distributed.backend));
  facts.distributed = std::move(distributed);
  return absl::OkStatus();
}

absl::Status ReadException(const Fields& top, RuntimeFacts& facts) {
  const Json* json = top.Get("exception");
  if (json == nullptr) return absl::OkStatus();  // a run of passing tests: no failure seen
  SMALLFIX_ASSIGN_OR_RETURN(const Fields fields, Fields::Of(*json, "exception"));
  SMALLFIX_RETURN_IF_ERROR(fields.String("type", facts.exception.type, /*required=*/true));
  SMALLFIX_RETURN_IF_ERROR(fields.String("message", facts.exception.message));
  return fields.StringMap("attrs", facts.exception.attrs);
}

}  // namespace

absl::StatusOr<RuntimeFacts> ParseRuntimeFacts(std::string_view json_text) {
  const Json json = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return absl::InvalidArgumentError("runtime facts: not valid JSON");
  if (!json.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("runtime facts: expected a JSON object, got %s", json.type_name()));
  }
  SMALLFIX_ASSIGN_OR_RETURN(const Fields top, Fields::Of(json, ""));
  RuntimeFacts facts;
  SMALLFIX_RETURN_IF_ERROR(top.Int("version", facts.version, /*required=*/true));
  if (facts.version != kRuntimeFactsVersion) {
    return absl::InvalidArgumentError(
        absl::StrFormat("runtime facts: version %d; this smallfix reads version %d", facts.version,
                        kRuntimeFactsVersion));
  }
  SMALLFIX_RETURN_IF_ERROR(top.String("test", facts.test));
  SMALLFIX_RETURN_IF_ERROR(ReadException(top, facts));
  SMALLFIX_RETURN_IF_ERROR(ReadArray(top, "frames", ReadFrame, facts.frames));
  SMALLFIX_RETURN_IF_ERROR(ReadCallee(top, facts));
  SMALLFIX_RETURN_IF_ERROR(ReadAttributeOwner(top, facts));
  SMALLFIX_RETURN_IF_ERROR(ReadDistributed(top, facts));
  SMALLFIX_RETURN_IF_ERROR(top.StringMap("versions", facts.versions));
  SMALLFIX_RETURN_IF_ERROR(ReadArray(top, "passing", ReadPassing, facts.passing));
  SMALLFIX_RETURN_IF_ERROR(top.String("capture_error", facts.capture_error));
  return facts;
}

const FrameFacts* FindFrame(const RuntimeFacts& facts, std::string_view file, int line) {
  for (auto it = facts.frames.rbegin(); it != facts.frames.rend(); ++it) {
    if (it->file == file && it->line == line) return &*it;
  }
  return nullptr;
}

}  // namespace smallfix
