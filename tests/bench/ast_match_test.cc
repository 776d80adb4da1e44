#include "engine/bench/smallfix/ast_match.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "engine/bench/smallfix/unified_diff.h"

namespace smallfix::bench {
namespace {

using ::testing::HasSubstr;

constexpr char kBuggy[] = R"(def bucket(params):
    out = []
    for p in params:
        n = p.grad.numel()
        out.append(n)
    return out
)";

constexpr char kReferenceDiff[] = R"(diff --git a/pkg/reduce.py b/pkg/reduce.py
--- a/pkg/reduce.py
+++ b/pkg/reduce.py
@@ -1,6 +1,8 @@
 def bucket(params):
     out = []
     for p in params:
+        if p.grad is None:
+            continue
         n = p.grad.numel()
         out.append(n)
     return out
)";

FileReader Files(std::map<std::string, std::string> files) {
  return [files](const std::string& name) -> absl::StatusOr<std::string> {
    auto it = files.find(name);
    if (it == files.end()) return absl::NotFoundError(name);
    return it->second;
  };
}

std::vector<FileChange> Reference() {
  absl::StatusOr<std::vector<FileChange>> reference = ApplyUnifiedDiff(kReferenceDiff, Files({{"pkg/reduce.py", kBuggy}}));
  EXPECT_TRUE(reference.ok()) << reference.status();
  return reference.ok() ? *reference : std::vector<FileChange>{};
}

FileChange Candidate(const std::string& after) { return {"pkg/reduce.py", kBuggy, after}; }

TEST(UnifiedDiffTest, AppliesAHunk) {
  const std::vector<FileChange> reference = Reference();
  ASSERT_EQ(reference.size(), 1u);
  EXPECT_EQ(reference[0].file, "pkg/reduce.py");
  EXPECT_EQ(reference[0].before, kBuggy);
  EXPECT_THAT(reference[0].after, HasSubstr("    for p in params:\n        if p.grad is None:\n            continue\n"
                                            "        n = p.grad.numel()\n"));
}

TEST(UnifiedDiffTest, FindsAShiftedHunkAndRejectsAWrongOne) {
  absl::StatusOr<std::vector<FileChange>> shifted =
      ApplyUnifiedDiff(kReferenceDiff, Files({{"pkg/reduce.py", std::string("import os\n\n") + kBuggy}}));
  ASSERT_TRUE(shifted.ok()) << shifted.status();
  EXPECT_THAT((*shifted)[0].after, HasSubstr("import os\n\ndef bucket"));
  EXPECT_THAT((*shifted)[0].after, HasSubstr("continue"));

  absl::StatusOr<std::vector<FileChange>> wrong = ApplyUnifiedDiff(kReferenceDiff, Files({{"pkg/reduce.py", "x = 1\n"}}));
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("does not apply"));
  EXPECT_FALSE(ApplyUnifiedDiff(kReferenceDiff, Files({})).ok());
  EXPECT_FALSE(ApplyUnifiedDiff("not a diff\n", Files({})).ok());
}

TEST(UnifiedDiffTest, AppliesTheBenchmarksReferenceFix) {
  const std::string bug = std::string(SMALLFIX_SOURCE_DIR) + "/benchmarks/smallfix/bugs/guard-none-grad-skip";
  std::ifstream in(bug + "/fix.diff");
  std::stringstream diff;
  diff << in.rdbuf();
  absl::StatusOr<std::vector<FileChange>> fixed =
      ApplyUnifiedDiff(diff.str(), [&](const std::string& file) -> absl::StatusOr<std::string> {
        std::ifstream source(bug + "/project/" + file);
        if (!source) return absl::NotFoundError(file);
        std::stringstream text;
        text << source.rdbuf();
        return text.str();
      });
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  ASSERT_EQ(fixed->size(), 1u);
  EXPECT_EQ((*fixed)[0].file, "minizero/reduce.py");
  EXPECT_THAT((*fixed)[0].after, HasSubstr("if p.grad is None:\n                continue\n"));
}

TEST(AstMatchTest, SameTreeUpToLayout) {
  const std::vector<FileChange> reference = Reference();
  const std::string reformatted = R"(def bucket(params):
    out = []
    for p in params:
        if (p.grad is None):  # frozen
            continue
        n = p.grad.numel()

        out.append(n)
    return out
)";
  // Redundant parentheses and comments are not in Python's ast: the same tree.
  EXPECT_TRUE(SameAstAsReference(reference, {Candidate(reformatted)}));
  const std::string spaced = R"(def bucket(params):
    out = []
    for p in params:
        if p.grad   is None:
            continue
        n = p.grad.numel()

        out.append(n)
    return out
)";
  EXPECT_TRUE(SameAstAsReference(reference, {Candidate(spaced)}));
  EXPECT_TRUE(SameAstAsReference(reference, reference));
}

TEST(AstMatchTest, DifferentFixesDiffer) {
  const std::vector<FileChange> reference = Reference();
  const std::string other_guard = R"(def bucket(params):
    out = []
    for p in params:
        if p.grad is None:
            break
        n = p.grad.numel()
        out.append(n)
    return out
)";
  EXPECT_FALSE(SameAstAsReference(reference, {Candidate(other_guard)}));
  EXPECT_FALSE(SameAstAsReference(reference, {Candidate(kBuggy)}));
  EXPECT_FALSE(SameAstAsReference(reference, {}));
  // The right change plus an unrelated one in another file is not the reference fix.
  std::vector<FileChange> extra = reference;
  extra.push_back({"pkg/other.py", "x = 1\n", "x = 2\n"});
  EXPECT_FALSE(SameAstAsReference(reference, extra));
  // ... but an edit that leaves another file's tree alone is.
  extra.back().after = "x  =  1\n";
  EXPECT_TRUE(SameAstAsReference(reference, extra));
}

}  // namespace
}  // namespace smallfix::bench
