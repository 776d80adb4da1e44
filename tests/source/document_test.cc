#include "engine/source/document.h"

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using ::testing::HasSubstr;
using testing::Find;
using testing::Parse;

TEST(DocumentTest, ParsesRealWorldShapes) {
  const std::string source = R"py(import torch.distributed as dist


@torch.no_grad()
@staticmethod
async def gather(tensor, *, group=None):
    async def inner():
        return f"{tensor.shape!r:>10} on rank {dist.get_rank(group=group)}"
    return await inner()
)py";
  Document document = Parse(source);
  EXPECT_EQ(document.CountSyntaxErrors(), 0);
  EXPECT_EQ(std::string(ts_node_type(document.root())), "module");
  TSNode inner = Find(document, "function_definition", "async def inner");
  ASSERT_FALSE(ts_node_is_null(inner));
  EXPECT_EQ(document.NodeStart(inner), (Position{6, 4}));
  EXPECT_FALSE(ts_node_is_null(Find(document, "decorated_definition")));
}

TEST(DocumentTest, KeepsCrlfTabsAndBomAsTheyAre) {
  const std::string source = "\xEF\xBB\xBFimport os\r\ndef f(x):\r\n\treturn x\r\n";
  Document document = Parse(source);
  EXPECT_EQ(document.text(), source);
  EXPECT_EQ(document.bom_size(), 3u);
  EXPECT_EQ(document.newline(), "\r\n");
  EXPECT_EQ(document.CountSyntaxErrors(), 0);
  TSNode import = Find(document, "import_statement");
  ASSERT_FALSE(ts_node_is_null(import));
  EXPECT_EQ(ts_node_start_byte(import), 3u);  // offsets are those of the whole file
  EXPECT_EQ(document.NodeText(Find(document, "return_statement")), "return x");
  EXPECT_EQ(document.lines().Line(2), "\treturn x");
}

TEST(DocumentTest, RejectsNonUtf8WithTheFileName) {
  absl::StatusOr<Document> document = Document::Parse("legacy.py", "s = 'caf\xE9'\n");
  ASSERT_FALSE(document.ok());
  EXPECT_THAT(document.status().message(), HasSubstr("legacy.py"));
  EXPECT_THAT(document.status().message(), HasSubstr("UTF-8"));
}

TEST(DocumentTest, CountsSyntaxErrorsOfABrokenFile) {
  Document document = Parse("def ok():\n    return 1\n\ndef broken(:\n    pass\n");
  EXPECT_GT(document.CountSyntaxErrors(), 0);
  EXPECT_FALSE(ts_node_is_null(Find(document, "function_definition", "def ok")));
}

TEST(DocumentTest, HandlesATensOfMegabytesFile) {
  std::string source;
  int functions = 0;
  while (source.size() < 20u << 20) {
    source += "def layer_" + std::to_string(functions++) +
              "(x, weight=None):\n    if weight is None:\n        return x\n    return x @ weight\n\n";
  }
  Document document = Parse(source);
  EXPECT_EQ(document.CountSyntaxErrors(), 0);
  EXPECT_EQ(document.lines().line_count(), functions * 5 + 1);
  EXPECT_EQ(ts_node_named_child_count(document.root()), static_cast<uint32_t>(functions));
}

TEST(DocumentTest, LoadReadsFilesAndNamesMissingOnes) {
  const auto path = std::filesystem::temp_directory_path() / ("smallfix_document_test_" + std::to_string(::getpid()) + ".py");
  std::ofstream(path) << "x = 1\n";
  absl::StatusOr<Document> document = Document::Load(path.string());
  ASSERT_TRUE(document.ok()) << document.status();
  EXPECT_EQ(document->text(), "x = 1\n");
  EXPECT_EQ(document->path(), path.string());
  // Named apart from where it was read (a repo-relative path), parsed the same.
  absl::StatusOr<Document> named = Document::Load(path.string(), "pkg/mod.py");
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ(named->path(), "pkg/mod.py");
  EXPECT_EQ(named->text(), "x = 1\n");
  auto tree_text = [](const Document& d) {
    char* text = ts_node_string(d.root());
    std::string out(text);
    free(text);
    return out;
  };
  EXPECT_EQ(tree_text(*named), tree_text(*document));
  std::filesystem::remove(path);
  absl::StatusOr<Document> missing = Document::Load("/nonexistent/mod.py");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("/nonexistent/mod.py"));
  absl::StatusOr<Document> missing_named = Document::Load("/nonexistent/mod.py", "mod.py");
  ASSERT_FALSE(missing_named.ok());
  EXPECT_THAT(missing_named.status().message(), HasSubstr("/nonexistent/mod.py"));
}

TEST(DocumentTest, CopiesShareTheTreeAndOutliveTheOriginal) {
  std::optional<Document> copy;
  {
    Document original = Parse("a = 1\n");  // short enough for small-string storage
    copy = original;
  }
  EXPECT_EQ(copy->NodeText(Find(*copy, "assignment")), "a = 1");
}

}  // namespace
}  // namespace smallfix
