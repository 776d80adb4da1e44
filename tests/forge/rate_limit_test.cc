#include "engine/forge/rate_limit.h"

#include <gtest/gtest.h>

namespace smallfix {
namespace {

HttpResponse Answer(long status, std::vector<std::pair<std::string, std::string>> headers, std::string body = "") {
  HttpResponse response;
  response.status = status;
  response.headers = std::move(headers);
  response.body = std::move(body);
  for (const auto& [name, value] : response.headers) {
    if (name == "retry-after") response.retry_after_seconds = std::stod(value);
  }
  return response;
}

TEST(RateLimitFor, RetryAfterWins) {
  const std::optional<RateLimitWait> wait =
      RateLimitFor(Answer(429, {{"retry-after", "7"}, {"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "9999"}}), 1000);
  ASSERT_TRUE(wait.has_value());
  EXPECT_EQ(wait->seconds, 7);
  EXPECT_NE(wait->reason.find("Retry-After: 7"), std::string::npos) << wait->reason;
}

TEST(RateLimitFor, PrimaryLimitWaitsUntilReset) {
  const std::optional<RateLimitWait> wait =
      RateLimitFor(Answer(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1012"}}), 1000);
  ASSERT_TRUE(wait.has_value());
  EXPECT_EQ(wait->seconds, 13);  // one second more than the reset is away
  EXPECT_NE(wait->reason.find("resets in 12 s"), std::string::npos) << wait->reason;
  // A reset already past still waits a second.
  EXPECT_EQ(RateLimitFor(Answer(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "990"}}), 1000)->seconds, 1);
}

TEST(RateLimitFor, SecondaryLimitWithoutHeadersWaitsAMinute) {
  const std::optional<RateLimitWait> wait = RateLimitFor(
      Answer(403, {}, R"({"message": "You have exceeded a Secondary Rate Limit. Please wait."})"), 1000);
  ASSERT_TRUE(wait.has_value());
  EXPECT_EQ(wait->seconds, 60);
  EXPECT_EQ(RateLimitFor(Answer(429, {}), 1000)->seconds, 60);
}

TEST(RateLimitFor, PermissionErrorsAndOtherStatusesAreNoLimit) {
  EXPECT_FALSE(RateLimitFor(Answer(403, {{"x-ratelimit-remaining", "4999"}}, R"({"message": "Resource not accessible"})"), 1000));
  EXPECT_FALSE(RateLimitFor(Answer(404, {{"retry-after", "3"}}), 1000));
  EXPECT_FALSE(RateLimitFor(Answer(200, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1012"}}), 1000));
  // Remaining 0 without a readable reset is not guessed at.
  EXPECT_FALSE(RateLimitFor(Answer(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "soon"}}), 1000));
}

}  // namespace
}  // namespace smallfix
