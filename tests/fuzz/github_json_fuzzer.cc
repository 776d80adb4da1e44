// libFuzzer target for the GitHub REST readers: any bytes as a response body (each object
// reader on it and, for a list, on each element), as a Link header and as rate-limit headers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/forge/github_objects.h"
#include "engine/forge/link_header.h"
#include "engine/forge/rate_limit.h"

namespace {

void ReadEach(const nlohmann::json& json) {
  using namespace smallfix;
  (void)RepositoryFromJson(json);
  (void)IssueFromJson(json);
  (void)CommentFromJson(json);
  (void)PullRequestFromJson(json);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace smallfix;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  ReadEach(json);
  if (json.is_array()) {
    for (const nlohmann::json& item : json) ReadEach(item);
  }
  (void)NextPageUrl(text);
  HttpResponse response;
  response.status = size % 2 == 0 ? 403 : 429;
  const size_t split = text.find('\n');
  const std::string first(text.substr(0, split));
  const std::string rest(split == std::string_view::npos ? "" : text.substr(split + 1));
  response.headers = {{"retry-after", first},
                      {"x-ratelimit-remaining", first},
                      {"x-ratelimit-reset", rest}};
  response.body = rest;
  (void)RateLimitFor(response, 1700000000);
  return 0;
}

#include "tests/fuzz/fuzz_main.h"
