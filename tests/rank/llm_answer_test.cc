#include <filesystem>

#include "engine/rank/llm_cache.h"
#include "engine/rank/llm_client.h"
#include "engine/rank/llm_ranker.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ExtractJsonObject, TakesTheWholeTextAFenceOrTheFirstBalancedObject) {
  EXPECT_EQ((*ExtractJsonObject(R"({"order": ["c1"]})"))["order"][0], "c1");
  EXPECT_EQ((*ExtractJsonObject("Sure:\n```json\n{\"order\": [\"c2\"]}\n```\nDone."))["order"][0], "c2");
  EXPECT_EQ((*ExtractJsonObject(R"(I pick {"order": ["c3"], "why": "a } in a string"} as best.)"))["order"][0], "c3");
  // A broken object first, a good one later.
  EXPECT_EQ((*ExtractJsonObject(R"({"order": [} then {"order": ["c4"]})"))["order"][0], "c4");
  EXPECT_FALSE(ExtractJsonObject("no json here"));
  EXPECT_FALSE(ExtractJsonObject("[1, 2]"));  // an array is not the object asked for
  EXPECT_FALSE(ExtractJsonObject("{\"order\": [\"c1\""));  // truncated
}

TEST(ParseOrder, AcceptsKnownIdsEachOnceAndPartialLists) {
  const std::vector<std::string> ids = {"c1", "c2", "c3"};
  EXPECT_THAT(*ParseOrder({{"order", {"c3", "c1"}}}, ids), ElementsAre(2, 0));
  EXPECT_THAT(ParseOrder({{"order", {"c1", "c9"}}}, ids).status().message(), HasSubstr("unknown id \"c9\""));
  EXPECT_THAT(ParseOrder({{"order", {"c1", "c1"}}}, ids).status().message(), HasSubstr("twice"));
  EXPECT_THAT(ParseOrder({{"order", {1, 2}}}, ids).status().message(), HasSubstr("non-id"));
  EXPECT_THAT(ParseOrder({{"ranking", {"c1"}}}, ids).status().message(), HasSubstr("no \"order\""));
  EXPECT_FALSE(ParseOrder({{"order", nlohmann::json::array()}}, ids).ok());
}

TEST(StableHash, IsFixedAndSpreads) {
  EXPECT_EQ(StableHash("abc"), StableHash("abc"));
  EXPECT_NE(StableHash("abc"), StableHash("abd"));
  EXPECT_EQ(StableHash("").size(), 32u);
}

TEST(LlmCache, ReturnsOnlyTheAnswerToTheSameRequest) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("smallfix_llm_cache_test_" + std::to_string(::getpid())))
                              .string();
  std::filesystem::remove_all(dir);
  LlmCache cache(dir + "/nested");
  const nlohmann::json request = {{"model", "m"}, {"seed", 7}};
  EXPECT_FALSE(cache.Get("http://a", request));
  cache.Put("http://a", request, {{"content", "{}"}});
  ASSERT_TRUE(cache.Get("http://a", request));
  EXPECT_EQ((*cache.Get("http://a", request))["content"], "{}");
  EXPECT_FALSE(cache.Get("http://b", request));                          // another server
  EXPECT_FALSE(cache.Get("http://a", {{"model", "m"}, {"seed", 8}}));   // another request
  // No temporary files left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/nested")) {
    EXPECT_EQ(entry.path().extension(), ".json");
    ++files;
  }
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(dir);
  LlmCache none("");
  none.Put("http://a", request, {{"content", "{}"}});
  EXPECT_FALSE(none.Get("http://a", request));
}

TEST(CheckLlmUrl, WantsHttpWithAHostAndNoCredentials) {
  EXPECT_TRUE(CheckLlmUrl("http://127.0.0.1:8000", "--llm").ok());
  EXPECT_TRUE(CheckLlmUrl("https://api.example.com/v1", "--llm").ok());
  EXPECT_THAT(CheckLlmUrl("ftp://x", "--llm").message(), HasSubstr("expected an http:// or https:// URL"));
  EXPECT_THAT(CheckLlmUrl("127.0.0.1:8000", "--llm").message(), HasSubstr("expected an http://"));
  EXPECT_THAT(CheckLlmUrl("http://", "--llm").message(), HasSubstr("names no host"));
  const absl::Status secret = CheckLlmUrl("https://user:sk-secret@api.example.com/v1", "--llm");
  EXPECT_THAT(secret.message(), HasSubstr("no credentials in the URL"));
  EXPECT_THAT(secret.message(), Not(HasSubstr("sk-secret")));
}

TEST(LlmClient, UnreachableServerIsAnErrorNamingIt) {
  LlmOptions options;
  options.url = "http://127.0.0.1:1/v1/";  // nothing listens on port 1
  options.model = "m";
  options.timeout_seconds = 5;
  LlmClient client(options);
  absl::StatusOr<nlohmann::json> answer = client.Chat({"sys", "user", "s", {{"type", "object"}}, 16});
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.status().message(), HasSubstr("http://127.0.0.1:1/v1/chat/completions"));
  EXPECT_EQ(client.stats().calls, 1);
  EXPECT_EQ(client.stats().retries, 0);
}

TEST(ParseChatReply, ReadsAnAnswerOfTheWrongShapeAsAnErrorOrAnAbsentField) {
  EXPECT_THAT(ParseChatReply(R"({"choices": "ok"})").status().message(),
              HasSubstr("not a chat completion"));
  EXPECT_FALSE(ParseChatReply("[1]").ok());
  EXPECT_FALSE(ParseChatReply(R"({"choices": [5]})").ok());
  // Fields of the wrong type read as absent: no exception, no crash.
  absl::StatusOr<ChatReply> odd = ParseChatReply(
      R"({"choices": [{"finish_reason": 5, "message": {"content": 7}}], "usage": {"prompt_tokens": "x", "completion_tokens": 3}})");
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->content, "");
  EXPECT_FALSE(odd->truncated);
  EXPECT_EQ(odd->prompt_tokens, 0);
  EXPECT_EQ(odd->completion_tokens, 3);
  absl::StatusOr<ChatReply> cut =
      ParseChatReply(R"({"choices": [{"finish_reason": "length", "message": {"content": "{"}}]})");
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(cut->truncated);
  EXPECT_EQ(cut->content, "{");
}

TEST(JsonString, IsEmptyForAnythingButAStringField) {
  EXPECT_EQ(JsonString({{"site", "s1"}}, "site"), "s1");
  EXPECT_EQ(JsonString({{"site", 5}}, "site"), "");
  EXPECT_EQ(JsonString(nlohmann::json::array({1}), "site"), "");
  EXPECT_EQ(JsonString(nlohmann::json(4), "site"), "");
}

}  // namespace
}  // namespace smallfix
