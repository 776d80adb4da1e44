#ifndef SMALLFIX_ENGINE_FORGE_RATE_LIMIT_H_
#define SMALLFIX_ENGINE_FORGE_RATE_LIMIT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "engine/base/http_exchange.h"

namespace smallfix {

// How long GitHub asks a client to wait before it tries again, and why.
struct RateLimitWait {
  double seconds = 0;
  std::string reason;  // "Retry-After: 30", "X-RateLimit-Remaining: 0, resets in 12 s", ...
};

// GitHub's documented rules, in order: a 403 or 429 with Retry-After waits that long; with
// X-RateLimit-Remaining 0 it waits until X-RateLimit-Reset (Unix seconds; one second more for
// clocks that disagree); a 403 or 429 that names a secondary rate limit without either header
// waits a minute; a 429 without headers waits a minute too. Any other answer (a plain 403 is
// a permission error) is no rate limit: nullopt. `now` is the current Unix time in seconds.
std::optional<RateLimitWait> RateLimitFor(const HttpResponse& response, int64_t now);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FORGE_RATE_LIMIT_H_
