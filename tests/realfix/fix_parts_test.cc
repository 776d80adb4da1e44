#include "engine/bench/realfix/fix_parts.h"

#include <gtest/gtest.h>

namespace smallfix::realfix {
namespace {

// Each part is the parent with one hunk of the fix: an import added at the top, a name
// changed further down, and a line deleted at the end, each alone.
TEST(FixPartsTest, EachHunkAppliedAlone) {
  const std::string before = "import os\n\ndef f(x):\n    return g(x)\n\nprint(1)\nprint(2)\n";
  const std::string fixed = "import os\nimport sys\n\ndef f(x):\n    return h(x)\n\nprint(1)\n";
  absl::StatusOr<std::vector<FixPart>> parts = FixParts(before, fixed);
  ASSERT_TRUE(parts.ok()) << parts.status();
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0].target, "import os\nimport sys\n\ndef f(x):\n    return g(x)\n\nprint(1)\nprint(2)\n");
  EXPECT_EQ((*parts)[1].hunk.old_start, 4);
  EXPECT_EQ((*parts)[1].target, "import os\n\ndef f(x):\n    return h(x)\n\nprint(1)\nprint(2)\n");
  EXPECT_EQ((*parts)[2].target, "import os\n\ndef f(x):\n    return g(x)\n\nprint(1)\n");
}

// One hunk is one part: the fixed file; no change, no part. A file without a final newline
// keeps its lines whole.
TEST(FixPartsTest, OneHunkIsTheFixAndNoChangeIsNone) {
  absl::StatusOr<std::vector<FixPart>> one = FixParts("a = 1\nb = 2", "a = 1\nb = 3");
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].target, "a = 1\nb = 3");
  absl::StatusOr<std::vector<FixPart>> none = FixParts("a = 1\n", "a = 1\n");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
}

// Two places changed in one line are two parts, each the line with only that place changed;
// places that only parse together stay one part.
TEST(FixPartsTest, TwoPlacesInALineAreTwoParts) {
  const std::string before = "x = 0\ny = g(a, 1)  # note\n";
  absl::StatusOr<std::vector<FixPart>> parts = FixParts(before, "x = 0\ny = h(a, 2)  # note\n");
  ASSERT_TRUE(parts.ok()) << parts.status();
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0].target, "x = 0\ny = h(a, 1)  # note\n");
  EXPECT_EQ((*parts)[0].hunk.old_start, 2);
  EXPECT_EQ((*parts)[1].target, "x = 0\ny = g(a, 2)  # note\n");
  absl::StatusOr<std::vector<FixPart>> wrapped = FixParts(before, "x = 0\ny = k(g(a, 1))  # note\n");
  ASSERT_TRUE(wrapped.ok()) << wrapped.status();
  ASSERT_EQ(wrapped->size(), 1u);
  EXPECT_EQ((*wrapped)[0].target, "x = 0\ny = k(g(a, 1))  # note\n");
}

}  // namespace
}  // namespace smallfix::realfix
