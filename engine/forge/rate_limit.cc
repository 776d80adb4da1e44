#include "engine/forge/rate_limit.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

namespace smallfix {

std::optional<RateLimitWait> RateLimitFor(const HttpResponse& response, int64_t now) {
  if (response.status != 403 && response.status != 429) return std::nullopt;
  if (response.retry_after_seconds >= 0) {
    return RateLimitWait{
        response.retry_after_seconds,
        absl::StrFormat("HTTP %d, Retry-After: %g", response.status, response.retry_after_seconds)};
  }
  int64_t reset = 0;
  if (response.Header("x-ratelimit-remaining") == "0" &&
      absl::SimpleAtoi(response.Header("x-ratelimit-reset"), &reset)) {
    const int64_t seconds = std::max<int64_t>(reset - now, 0) + 1;
    return RateLimitWait{static_cast<double>(seconds),
                         absl::StrFormat("HTTP %d, X-RateLimit-Remaining: 0, resets in %d s",
                                         response.status, std::max<int64_t>(reset - now, 0))};
  }
  // Secondary limits come as 403 (or 429) with a message and sometimes no header at all.
  if (absl::AsciiStrToLower(response.body).find("secondary rate limit") != std::string::npos ||
      response.status == 429) {
    return RateLimitWait{60, absl::StrFormat("HTTP %d, a secondary rate limit without Retry-After",
                                             response.status)};
  }
  return std::nullopt;
}

}  // namespace smallfix
