#ifndef SMALLFIX_ENGINE_BASE_HTTP_EXCHANGE_H_
#define SMALLFIX_ENGINE_BASE_HTTP_EXCHANGE_H_

#include <atomic>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace smallfix {

// One HTTP request over libcurl with every limit set: connect and total time, response size,
// TLS verification on, no redirects (a redirect could carry an Authorization header to another
// host), only http and https. Headers may hold a secret: they are sent and never echoed in errors.
struct HttpRequest {
  std::string method = "GET";  // GET, POST, PATCH, PUT or DELETE
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // sent with POST, PATCH and PUT
  double connect_timeout_seconds = 10;
  double total_timeout_seconds = 60;
  size_t max_response_bytes = 1 << 20;
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C: aborts the transfer
};

struct HttpResponse {
  long status = 0;
  std::string body;
  double retry_after_seconds = -1;  // Retry-After in seconds, -1 when absent or a date
  // Every response header, names lower-cased, values without surrounding blanks, in order.
  std::vector<std::pair<std::string, std::string>> headers;

  // The first header named `name` (any case); "" when absent.
  std::string Header(std::string_view name) const;
};

// The response of any status; an error (naming the URL and what happened, e.g. "timed out
// after 5 s", "response larger than 1048576 bytes") when no complete response came.
absl::StatusOr<HttpResponse> HttpExchange(const HttpRequest& request);

// Waits `seconds` between retries in small steps, so that Ctrl-C (`cancel`) is not held up.
void SleepUnlessCancelled(double seconds, const std::atomic<bool>* cancel);

// The start of a response body for an error message: one line, at most 200 characters.
std::string QuoteBody(std::string_view body);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_BASE_HTTP_EXCHANGE_H_
