#include "engine/base/http_exchange.h"

#include <curl/curl.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "engine/base/concat.h"

namespace smallfix {
namespace {

// libcurl wants one global initialisation before any thread uses it.
void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  HttpResponse response;
  size_t max_bytes = 0;
  bool too_large = false;
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  Transfer& transfer = *static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  // Checked here, not with CURLOPT_MAXFILESIZE: a chunked body (a server streaming whitespace
  // forever) has no length to compare up front.
  if (transfer.response.body.size() + bytes > transfer.max_bytes) {
    transfer.too_large = true;
    return 0;
  }
  transfer.response.body.append(data, bytes);
  return bytes;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  Transfer& transfer = *static_cast<Transfer*>(user);
  const std::string_view line(data, size * count);
  const size_t colon = line.find(':');
  if (line.starts_with("HTTP/"))
    transfer.response.headers.clear();  // a new response (after a 100 Continue)
  if (colon == std::string_view::npos) return size * count;
  std::string name = absl::AsciiStrToLower(std::string(line.substr(0, colon)));
  std::string value(line.substr(colon + 1));
  absl::StripAsciiWhitespace(&value);
  transfer.response.headers.emplace_back(name, value);
  if (name == "retry-after") {
    double seconds = 0;
    if (absl::SimpleAtod(value, &seconds) && seconds >= 0 && std::isfinite(seconds)) {
      transfer.response.retry_after_seconds = seconds;
    }
  }
  return size * count;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  Transfer& transfer = *static_cast<Transfer*>(user);
  if (transfer.cancel != nullptr && transfer.cancel->load()) {
    transfer.cancelled = true;
    return 1;  // aborts the transfer
  }
  return 0;
}

}  // namespace

std::string HttpResponse::Header(std::string_view name) const {
  const std::string wanted = absl::AsciiStrToLower(std::string(name));
  for (const auto& [key, value] : headers) {
    if (key == wanted) return value;
  }
  return "";
}

absl::StatusOr<HttpResponse> HttpExchange(const HttpRequest& request) {
  InitCurlOnce();
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return absl::InternalError("cannot start libcurl");
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(nullptr,
                                                                      &curl_slist_free_all);
  std::vector<std::string> all_headers = request.headers;
  // No "Expect: 100-continue" on larger bodies: servers that never answer it cost a second each.
  const bool has_body =
      request.method == "POST" || request.method == "PATCH" || request.method == "PUT";
  if (has_body) all_headers.push_back("Expect:");
  for (const std::string& header : all_headers) {
    curl_slist* appended = curl_slist_append(headers.get(), header.c_str());
    if (appended == nullptr) return absl::InternalError("cannot build the request headers");
    headers.release();
    headers.reset(appended);
  }
  Transfer transfer;
  transfer.max_bytes = request.max_response_bytes;
  transfer.cancel = request.cancel;
  char error[CURL_ERROR_SIZE] = {0};
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe in threads
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(request.connect_timeout_seconds * 1000));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.total_timeout_seconds * 1000));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &transfer);
  if (has_body) {
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    if (request.method != "POST")
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  } else if (request.method == "DELETE") {
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "DELETE");
  } else if (request.method != "GET") {
    return absl::InvalidArgumentError(Concat("unsupported HTTP method ", request.method));
  }
  const CURLcode code = curl_easy_perform(c);
  if (transfer.cancelled) return absl::CancelledError(Concat(request.url, ": interrupted"));
  if (transfer.too_large) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%s: response larger than %d bytes; abandoned", request.url, request.max_response_bytes));
  }
  if (code == CURLE_OPERATION_TIMEDOUT) {
    return absl::DeadlineExceededError(absl::StrFormat("%s: no complete answer within %g s",
                                                       request.url, request.total_timeout_seconds));
  }
  if (code != CURLE_OK) {
    return absl::UnavailableError(
        Concat(request.url, ": ",
               error[0] != '\0' ? std::string(error) : std::string(curl_easy_strerror(code))));
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &transfer.response.status);
  return std::move(transfer.response);
}

void SleepUnlessCancelled(double seconds, const std::atomic<bool>* cancel) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (cancel != nullptr && cancel->load()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string QuoteBody(std::string_view body) {
  constexpr size_t kQuotedChars = 200;
  std::string text(body.substr(0, kQuotedChars));
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return body.size() > kQuotedChars ? Concat(text, "...") : text;
}

}  // namespace smallfix
