#include "engine/forge/link_header.h"

#include <gtest/gtest.h>

namespace smallfix {
namespace {

TEST(NextPageUrl, FindsNextAmongOtherRelations) {
  EXPECT_EQ(NextPageUrl("<https://api.github.com/repositories/1/issues?page=2>; rel=\"next\", "
                        "<https://api.github.com/repositories/1/issues?page=5>; rel=\"last\""),
            "https://api.github.com/repositories/1/issues?page=2");
  EXPECT_EQ(NextPageUrl("<https://x/a?page=1>; rel=\"prev\", <https://x/a?page=3>; rel=\"next\""), "https://x/a?page=3");
}

TEST(NextPageUrl, LastPageHasNoNext) {
  EXPECT_EQ(NextPageUrl("<https://x/a?page=1>; rel=\"first\", <https://x/a?page=2>; rel=\"prev\""), "");
  EXPECT_EQ(NextPageUrl(""), "");
}

TEST(NextPageUrl, ToleratesCaseUnquotedAndSeveralRelations) {
  EXPECT_EQ(NextPageUrl("<https://x/a?q=a,b&page=2>; REL=next"), "https://x/a?q=a,b&page=2");
  EXPECT_EQ(NextPageUrl("<https://x/b>; title=\"t\"; rel=\"last next\""), "https://x/b");
}

TEST(NextPageUrl, BrokenHeaderGivesNothing) {
  EXPECT_EQ(NextPageUrl("<https://x/a?page=2; rel=\"next\""), "");
  EXPECT_EQ(NextPageUrl("https://x/a; rel=\"next\""), "");
}

}  // namespace
}  // namespace smallfix
