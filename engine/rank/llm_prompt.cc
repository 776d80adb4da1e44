#include "engine/rank/llm_prompt.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"

namespace smallfix {
namespace {

constexpr size_t kFailureHead = 3000, kFailureTail = 5000;  // characters of the failure sent
constexpr int kSiteRadius = 12;                             // lines either side of a site

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// The text of `candidate`'s site file before the edit.
std::string_view SiteFileText(const Candidate& candidate) {
  for (const FileChange& change : candidate.changes) {
    if (change.file == candidate.file) return change.before;
  }
  return candidate.changes.empty() ? std::string_view()
                                   : std::string_view(candidate.changes.front().before);
}

}  // namespace

std::string FailureExcerpt(std::string_view failure) {
  if (failure.size() <= kFailureHead + kFailureTail) return std::string(failure);
  return Concat(failure.substr(0, kFailureHead), "\n[... ",
                std::to_string(failure.size() - kFailureHead - kFailureTail),
                " characters left out ...]\n", failure.substr(failure.size() - kFailureTail));
}

std::string NumberedLines(std::string_view text, int first, int last) {
  const std::vector<std::string_view> lines = SplitLines(text);
  first = std::max(first, 1);
  last = std::min(last, static_cast<int>(lines.size()));
  std::string out;
  for (int i = first; i <= last; ++i) out += absl::StrFormat("%5d | %s\n", i, lines[i - 1]);
  return out;
}

ChatRequest RankPrompt(std::string_view failure, const std::vector<PromptCandidate>& candidates) {
  ChatRequest request;
  request.schema_name = "candidate_order";
  std::vector<std::string> ids;
  for (const PromptCandidate& c : candidates) ids.push_back(c.id);
  request.schema = {
      {"type", "object"},
      {"properties",
       {{"order", {{"type", "array"}, {"items", {{"type", "string"}, {"enum", ids}}}}}}},
      {"required", {"order"}},
      {"additionalProperties", false}};
  request.max_tokens = 64 + 8 * static_cast<int>(candidates.size());
  request.system =
      "You review candidate patches for a failing Python program. Each candidate is a small edit "
      "at a place the "
      "failure points to. Order the candidates from most to least likely to be the correct fix: "
      "the one a "
      "maintainer would merge, not merely one that silences the error. Answer with a JSON object "
      "{\"order\": [candidate ids, best first]}, using only the ids given, each once.";
  std::string user =
      Concat("## The failure\n\n", FailureExcerpt(failure), "\n\n## The code at the sites\n");
  // Each site once, however many candidates share it.
  std::vector<std::pair<std::string, int>> sites;
  for (const PromptCandidate& c : candidates) {
    const Candidate& candidate = c.candidate->candidate;
    const std::pair<std::string, int> site(candidate.file, candidate.line);
    if (std::find(sites.begin(), sites.end(), site) != sites.end()) continue;
    sites.push_back(site);
    user +=
        absl::StrFormat("\n### %s, line %d\n\n```python\n%s```\n", candidate.file, candidate.line,
                        NumberedLines(SiteFileText(candidate), candidate.line - kSiteRadius,
                                      candidate.line + kSiteRadius));
  }
  user += "\n## The candidates\n";
  for (const PromptCandidate& c : candidates) {
    const Candidate& candidate = c.candidate->candidate;
    user += absl::StrFormat("\n### candidate %s (%s: %s)\n\n```diff\n%s```\n", c.id,
                            candidate.template_id, candidate.summary, c.candidate->diff);
  }
  request.user = std::move(user);
  return request;
}

ChatRequest ProposePrompt(std::string_view failure, const std::vector<PromptSite>& sites,
                          int max_edits) {
  ChatRequest request;
  request.schema_name = "site_edits";
  std::vector<std::string> ids;
  for (const PromptSite& site : sites) ids.push_back(site.id);
  const nlohmann::json edit = {
      {"type", "object"},
      {"properties",
       {{"site", {{"type", "string"}, {"enum", ids}}},
        {"target", {{"type", "string"}, {"enum", {"statement", "function"}}}},
        {"code", {{"type", "string"}}},
        {"summary", {{"type", "string"}}}}},
      {"required", {"site", "target", "code", "summary"}},
      {"additionalProperties", false}};
  request.schema = {
      {"type", "object"},
      {"properties", {{"edits", {{"type", "array"}, {"items", edit}, {"maxItems", max_edits}}}}},
      {"required", {"edits"}},
      {"additionalProperties", false}};
  request.max_tokens = 600 * std::max(1, max_edits);
  request.system = absl::StrFormat(
      "You fix small bugs in Python code. For the failure below, propose at most %d small fixes at "
      "the sites "
      "shown. Write each fix as the complete new text of either the statement at the site (target "
      "\"statement\") "
      "or the whole enclosing function (target \"function\"), not as a diff, without line numbers. "
      "A fix changes "
      "at most 10 lines and nothing outside that statement or function. Answer with a JSON object "
      "{\"edits\": "
      "[{\"site\": id, \"target\": \"statement\" or \"function\", \"code\": new text, \"summary\": "
      "one line}]}.",
      max_edits);
  std::string user = Concat("## The failure\n\n", FailureExcerpt(failure), "\n\n## The sites\n");
  for (const PromptSite& site : sites) {
    user += absl::StrFormat(
        "\n### site %s: %s, line %d\n\n%s:\n\n```python\n%s```\n\nThe statement at the "
        "site:\n\n```python\n%s\n```\n",
        site.id, site.file, site.line,
        site.in_function ? "The enclosing function" : "The code around it", site.function_text,
        site.statement_text);
  }
  request.user = std::move(user);
  return request;
}

}  // namespace smallfix
