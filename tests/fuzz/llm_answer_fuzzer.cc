// libFuzzer target for what an LLM server sends back: the chat completion body, the JSON
// object taken out of the model's text, the ranking order read from it and the fields of
// proposed edits. Every answer of the wrong shape must read as an error or an absent field.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/rank/llm_client.h"
#include "engine/rank/llm_ranker.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<ChatReply> reply = ParseChatReply(text);
  std::optional<nlohmann::json> answer = ExtractJsonObject(reply.ok() ? reply->content : text);
  if (!answer) return 0;
  (void)ParseOrder(*answer, {"c1", "c2", "c3", "c4"});
  if (answer->contains("edits") && (*answer)["edits"].is_array()) {
    for (const nlohmann::json& edit : (*answer)["edits"]) {
      for (const char* key : {"site", "target", "code", "summary"}) (void)JsonString(edit, key);
    }
  }
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
