// Copies of a line in other files: the same line in a def of the same name and class.
#include "engine/repair/line_copies.h"

#include <map>
#include <string>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

constexpr char kCopy[] =
    "class FSDPPrecision(Precision):\n"                                              // 1
    "    @override\n"                                                                // 2
    "    def module_init_context(self):\n"                                           // 3
    "        return Dtype(self.config.param_dtype or torch.float32)\n"               // 4
    "\n"                                                                             // 5
    "    def forward_context(self):\n"                                               // 6
    "        return Dtype(self.config.param_dtype or torch.float32)\n";              // 7

// The same line in a def of the same name, but of another class: no copy.
constexpr char kOther[] =
    "class HalfPrecision(Precision):\n"
    "    def module_init_context(self):\n"
    "        return Dtype(self.config.param_dtype or torch.float32)\n";

TEST(LineCopiesTest, TheLineInTheSameMethodOfTheSameClassElsewhere) {
  std::map<std::string, std::string> files = {{"pkg/fabric/fsdp.py", std::string("import torch\n\n\n") + kCopy},
                                              {"pkg/pytorch/fsdp.py", kCopy},
                                              {"pkg/half.py", kOther}};
  std::vector<Document> documents;
  for (const auto& [path, text] : files) {
    absl::StatusOr<Document> document = Document::Parse(path, text);
    ASSERT_TRUE(document.ok()) << document.status();
    documents.push_back(*std::move(document));
  }
  const RepoIndex index = RepoIndex::FromDocuments(documents);
  auto load = [&](const std::string& path) -> absl::StatusOr<Document> {
    for (const Document& document : documents) {
      if (document.path() == path) return document;
    }
    return absl::NotFoundError(path);
  };
  // Line 7 of the fabric file is line 4 of kCopy; only the same def counts, not the same line
  // in `forward_context`.
  const std::vector<LineCopies> copies = CopiesInOtherFiles(index, load, documents[0], 7);
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].document.path(), "pkg/pytorch/fsdp.py");
  EXPECT_EQ(copies[0].lines, std::vector<int>{4});
  // A line outside any def has no copies to look for.
  EXPECT_TRUE(CopiesInOtherFiles(index, load, documents[0], 1).empty());
}

}  // namespace
}  // namespace smallfix
