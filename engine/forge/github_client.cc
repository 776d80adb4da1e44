#include "engine/forge/github_client.h"

#include <chrono>
#include <cstdlib>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/base/concat.h"
#include "engine/base/status_macros.h"
#include "engine/forge/link_header.h"
#include "engine/forge/rate_limit.h"

namespace smallfix {
namespace {

bool NamePart(std::string_view part) {
  if (part.empty() || part == "." || part == "..") return false;
  for (char c : part) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  }
  return true;
}

// RFC 3986 unreserved characters stay; everything else is %XX.
std::string PercentEncode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (absl::ascii_isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += absl::StrFormat("%%%02X", c);
    }
  }
  return out;
}

// The API base: http(s), a host, no credentials, no query; without its trailing slash.
absl::StatusOr<std::string> CheckApiUrl(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  const size_t scheme = url.find("://");
  const std::string name =
      scheme == std::string::npos ? "" : absl::AsciiStrToLower(url.substr(0, scheme));
  if (name != "http" && name != "https") {
    return absl::InvalidArgumentError(
        Concat("--api ", url, ": expected an http:// or https:// URL"));
  }
  const std::string authority = url.substr(scheme + 3, url.find('/', scheme + 3) - (scheme + 3));
  if (authority.find('@') != std::string::npos) {
    return absl::InvalidArgumentError(
        "--api: no credentials in the URL; put the token in GITHUB_TOKEN");
  }
  if (authority.empty())
    return absl::InvalidArgumentError(Concat("--api ", url, ": the URL names no host"));
  if (url.find_first_of("?#") != std::string::npos) {
    return absl::InvalidArgumentError(
        Concat("--api ", url, ": no query or fragment in the API base"));
  }
  return url;
}

// What went wrong, from GitHub's error JSON ({"message": ..., "errors": [...]}) or the body.
std::string ErrorText(const HttpResponse& response) {
  const nlohmann::json json =
      nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (json.is_object() && json.contains("message") && json["message"].is_string()) {
    std::string text = json["message"].get<std::string>();
    if (json.contains("errors") && json["errors"].is_array()) {
      for (const nlohmann::json& error : json["errors"]) {
        if (error.is_object() && error.contains("message") && error["message"].is_string()) {
          text += Concat("; ", error["message"].get<std::string>());
        }
      }
    }
    return QuoteBody(text);
  }
  return QuoteBody(response.body);
}

bool Transient(long status) { return status == 502 || status == 503 || status == 504; }

}  // namespace

std::string GitHubTokenFromEnvironment() {
  for (const char* name : {"SMALLFIX_GITHUB_TOKEN", "GITHUB_TOKEN"}) {
    if (const char* value = std::getenv(name); value != nullptr && value[0] != '\0') return value;
  }
  return "";
}

absl::Status CheckRepositoryName(std::string_view full_name) {
  const size_t slash = full_name.find('/');
  if (slash == std::string_view::npos || !NamePart(full_name.substr(0, slash)) ||
      !NamePart(full_name.substr(slash + 1))) {
    return absl::InvalidArgumentError(Concat("--github ", full_name, ": expected OWNER/NAME"));
  }
  return absl::OkStatus();
}

absl::StatusOr<GitHubClient> GitHubClient::Create(GitHubOptions options,
                                                  std::string_view full_name) {
  SMALLFIX_RETURN_IF_ERROR(CheckRepositoryName(full_name));
  absl::StatusOr<std::string> api = CheckApiUrl(options.api);
  if (!api.ok()) return api.status();
  options.api = *api;
  if (options.token.find_first_of("\r\n") != std::string::npos) {
    return absl::InvalidArgumentError("the GitHub token holds a line break");
  }
  const size_t slash = full_name.find('/');
  return GitHubClient(std::move(options), std::string(full_name.substr(0, slash)),
                      std::string(full_name.substr(slash + 1)));
}

GitHubClient::GitHubClient(GitHubOptions options, std::string owner, std::string name)
    : options_(std::move(options)),
      owner_(std::move(owner)),
      name_(std::move(name)),
      full_name_(Concat(owner_, "/", name_)) {}

std::string GitHubClient::RepoPath(std::string_view rest) const {
  return Concat(options_.api, "/repos/", owner_, "/", name_, rest);
}

std::string GitHubClient::Scrub(std::string text) const {
  // A server or proxy may echo the request's headers back in an error page.
  if (!options_.token.empty()) absl::StrReplaceAll({{options_.token, "[token]"}}, &text);
  return text;
}

absl::StatusOr<nlohmann::json> GitHubClient::Call(const std::string& method, const std::string& url,
                                                  const nlohmann::json* body,
                                                  std::string* next_page) {
  HttpRequest request;
  request.method = method;
  request.url = url;
  request.headers = {"Accept: application/vnd.github+json", "X-GitHub-Api-Version: 2022-11-28",
                     "User-Agent: smallfix"};
  if (!options_.token.empty())
    request.headers.push_back(Concat("Authorization: Bearer ", options_.token));
  if (body != nullptr) {
    request.headers.push_back("Content-Type: application/json");
    // Text quoted from an issue could hold the token (pasted by mistake): it is not posted back.
    request.body = Scrub(body->dump());
  }
  request.total_timeout_seconds = options_.timeout_seconds;
  request.connect_timeout_seconds = std::min(10.0, options_.timeout_seconds);
  request.max_response_bytes = 16 << 20;
  request.cancel = options_.cancel;
  // The path alone in messages: the base is the user's, and shorter.
  const std::string what = Concat(
      method, " ", absl::StartsWith(url, options_.api) ? url.substr(options_.api.size()) : url);
  double backoff = 1;
  for (int attempt = 1;; ++attempt) {
    ++requests_;
    absl::StatusOr<HttpResponse> response = HttpExchange(request);
    if (!response.ok()) {
      return absl::Status(response.status().code(),
                          Scrub(Concat("GitHub API ", response.status().message())));
    }
    if (response->status >= 200 && response->status < 300) {
      if (next_page != nullptr) *next_page = NextPageUrl(response->Header("link"));
      if (response->body.empty() || response->status == 204) return nlohmann::json();
      nlohmann::json json =
          nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
      if (json.is_discarded()) {
        return absl::UnavailableError(Scrub(absl::StrFormat(
            "GitHub API %s: the answer is not JSON: %s", what, QuoteBody(response->body))));
      }
      return json;
    }
    const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    std::optional<RateLimitWait> wait = RateLimitFor(*response, now);
    if (!wait && Transient(response->status)) {
      wait = RateLimitWait{backoff, absl::StrFormat("HTTP %d", response->status)};
      backoff *= 2;
    }
    if (!wait) {
      return absl::Status(response->status == 404 ? absl::StatusCode::kNotFound
                          : response->status == 401 || response->status == 403
                              ? absl::StatusCode::kPermissionDenied
                              : absl::StatusCode::kFailedPrecondition,
                          Scrub(absl::StrFormat("GitHub API %s: HTTP %d: %s", what,
                                                response->status, ErrorText(*response))));
    }
    if (wait->seconds > options_.max_wait_seconds) {
      return absl::UnavailableError(
          absl::StrFormat("GitHub API %s: rate limited (%s); that is longer than the %g s smallfix "
                          "waits (--max-wait); try again later",
                          what, wait->reason, options_.max_wait_seconds));
    }
    if (attempt >= options_.max_attempts) {
      return absl::UnavailableError(absl::StrFormat(
          "GitHub API %s: still refused after %d attempts (%s)", what, attempt, wait->reason));
    }
    if (options_.progress)
      options_.progress(
          absl::StrFormat("GitHub API %s: %s; waiting %.0f s", what, wait->reason, wait->seconds));
    SleepUnlessCancelled(wait->seconds, options_.cancel);
    if (options_.cancel != nullptr && options_.cancel->load()) {
      return absl::CancelledError(Concat("GitHub API ", what, ": interrupted"));
    }
  }
}

absl::StatusOr<std::vector<nlohmann::json>> GitHubClient::CallList(const std::string& url) {
  std::vector<nlohmann::json> items;
  std::string next = url;
  for (int page = 1; !next.empty(); ++page) {
    if (page > options_.max_pages) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "GitHub API: more than %d pages of %s; stopped", options_.max_pages, url));
    }
    // A next link to another host would carry the token there: only the API base is followed.
    if (!absl::StartsWith(next, Concat(options_.api, "/"))) {
      return absl::FailedPreconditionError(
          Concat("GitHub API: a pagination link leaves ", options_.api, ": ", next));
    }
    std::string following;
    SMALLFIX_ASSIGN_OR_RETURN(nlohmann::json json, Call("GET", next, nullptr, &following));
    if (!json.is_array())
      return absl::UnavailableError(Concat("GitHub API GET ", next, ": expected a list"));
    for (nlohmann::json& item : json) items.push_back(std::move(item));
    next = following;
  }
  return items;
}

absl::StatusOr<GitHubRepository> GitHubClient::GetRepository() {
  SMALLFIX_ASSIGN_OR_RETURN(nlohmann::json json, Call("GET", RepoPath(""), nullptr, nullptr));
  return RepositoryFromJson(json);
}

absl::StatusOr<GitHubIssue> GitHubClient::GetIssue(int number) {
  SMALLFIX_ASSIGN_OR_RETURN(
      nlohmann::json json,
      Call("GET", RepoPath(absl::StrFormat("/issues/%d", number)), nullptr, nullptr));
  return IssueFromJson(json);
}

absl::StatusOr<std::vector<GitHubComment>> GitHubClient::ListIssueComments(int number) {
  SMALLFIX_ASSIGN_OR_RETURN(
      std::vector<nlohmann::json> items,
      CallList(RepoPath(absl::StrFormat("/issues/%d/comments?per_page=100", number))));
  std::vector<GitHubComment> comments;
  for (const nlohmann::json& item : items) {
    SMALLFIX_ASSIGN_OR_RETURN(GitHubComment comment, CommentFromJson(item));
    comments.push_back(std::move(comment));
  }
  return comments;
}

absl::StatusOr<std::vector<GitHubIssue>> GitHubClient::ListOpenIssuesWithLabel(
    std::string_view label) {
  SMALLFIX_ASSIGN_OR_RETURN(
      std::vector<nlohmann::json> items,
      CallList(RepoPath(Concat("/issues?state=open&sort=created&direction=asc&per_page=100&labels=",
                               PercentEncode(label)))));
  std::vector<GitHubIssue> issues;
  for (const nlohmann::json& item : items) {
    SMALLFIX_ASSIGN_OR_RETURN(GitHubIssue issue, IssueFromJson(item));
    if (!issue.is_pull_request) issues.push_back(std::move(issue));
  }
  return issues;
}

absl::StatusOr<GitHubComment> GitHubClient::AddIssueComment(int number, std::string_view body) {
  const nlohmann::json payload = {{"body", std::string(body)}};
  SMALLFIX_ASSIGN_OR_RETURN(
      nlohmann::json json,
      Call("POST", RepoPath(absl::StrFormat("/issues/%d/comments", number)), &payload, nullptr));
  return CommentFromJson(json);
}

absl::Status GitHubClient::AddLabels(int number, const std::vector<std::string>& labels) {
  const nlohmann::json payload = {{"labels", labels}};
  return Call("POST", RepoPath(absl::StrFormat("/issues/%d/labels", number)), &payload, nullptr)
      .status();
}

absl::StatusOr<std::vector<GitHubPullRequest>> GitHubClient::ListPullsByHead(
    std::string_view branch) {
  SMALLFIX_ASSIGN_OR_RETURN(std::vector<nlohmann::json> items,
                            CallList(RepoPath(Concat("/pulls?state=all&per_page=100&head=",
                                                     PercentEncode(Concat(owner_, ":", branch))))));
  std::vector<GitHubPullRequest> pulls;
  for (const nlohmann::json& item : items) {
    SMALLFIX_ASSIGN_OR_RETURN(GitHubPullRequest pull, PullRequestFromJson(item));
    // The filter is the server's; a server that ignores it must not make us touch other PRs.
    if (pull.head_ref == branch) pulls.push_back(std::move(pull));
  }
  return pulls;
}

absl::StatusOr<GitHubPullRequest> GitHubClient::CreatePull(std::string_view title,
                                                           std::string_view head,
                                                           std::string_view base,
                                                           std::string_view body) {
  const nlohmann::json payload = {{"title", std::string(title)},
                                  {"head", std::string(head)},
                                  {"base", std::string(base)},
                                  {"body", std::string(body)},
                                  {"maintainer_can_modify", true}};
  SMALLFIX_ASSIGN_OR_RETURN(nlohmann::json json,
                            Call("POST", RepoPath("/pulls"), &payload, nullptr));
  return PullRequestFromJson(json);
}

absl::StatusOr<GitHubPullRequest> GitHubClient::UpdatePull(int number, std::string_view title,
                                                           std::string_view body) {
  const nlohmann::json payload = {{"title", std::string(title)}, {"body", std::string(body)}};
  SMALLFIX_ASSIGN_OR_RETURN(
      nlohmann::json json,
      Call("PATCH", RepoPath(absl::StrFormat("/pulls/%d", number)), &payload, nullptr));
  return PullRequestFromJson(json);
}

}  // namespace smallfix
