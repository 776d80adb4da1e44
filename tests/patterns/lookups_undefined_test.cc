// The look-ups about undefined names through the templates that use them, on files inside a
// package (a template's own examples live in a top-level example.py, where relative imports
// cannot be shown).
#include <string>
#include <vector>

#include "engine/index/repo_index.h"
#include "engine/patterns/match.h"
#include "engine/patterns/template_loader.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::Parse;

Template Load(const std::string& name) {
  absl::StatusOr<Template> t = LoadTemplate(std::string(SMALLFIX_SOURCE_DIR) + "/templates/generic/" + name);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// The results of `t` at `line` of the first document, the others being the rest of the repo.
std::vector<std::string> Results(const Template& t, const std::vector<Document>& documents, int line) {
  const RepoIndex index = RepoIndex::FromDocuments(documents);
  MatchContext context;
  context.index = &index;
  std::vector<std::string> out;
  for (const Candidate& candidate :
       MatchTemplate(t, documents.front(), line, Symptom{}, context, nullptr, SymptomMode::kRankOnly)) {
    out.push_back(candidate.changes.front().after);
  }
  return out;
}

TEST(MissingImportTest, ARepoNameIsImportedRelativelyWhereTheFileDoesSo) {
  const std::vector<Document> repo = {
      Parse("import torch\n\nfrom ..utils import transpose\n\nx = is_bnb_available()\n", "pkg/tuners/lora.py"),
      Parse("", "pkg/__init__.py"),
      Parse("", "pkg/tuners/__init__.py"),
      Parse("def transpose(w):\n    return w\n", "pkg/utils.py"),
      Parse("def is_bnb_available():\n    return False\n", "pkg/import_utils.py"),
      Parse("def is_bnb_available():\n    return True\n", "tests/test_utils.py"),
  };
  EXPECT_EQ(Results(Load("import_undefined_name.yaml"), repo, 3),
            std::vector<std::string>{
                "import torch\n\nfrom ..import_utils import is_bnb_available\nfrom ..utils import transpose\n\n"
                "x = is_bnb_available()\n"});
}

TEST(MissingImportTest, NotWhenTwoRepoModulesDefineIt) {
  const std::vector<Document> repo = {
      Parse("import torch\n\nx = helper()\n", "pkg/a.py"),
      Parse("", "pkg/__init__.py"),
      Parse("def helper():\n    pass\n", "pkg/b.py"),
      Parse("def helper():\n    pass\n", "pkg/c.py"),
  };
  EXPECT_TRUE(Results(Load("import_undefined_name.yaml"), repo, 1).empty());
}

TEST(MissingImportTest, AStandardLibraryPackageWithTheSubmodulesItReads) {
  const std::vector<Document> repo = {
      Parse("import warnings\n\nspec = importlib.util.find_spec('x')\n", "pkg/a.py")};
  EXPECT_EQ(Results(Load("import_undefined_name.yaml"), repo, 1),
            (std::vector<std::string>{
                "import importlib\nimport importlib.util\nimport warnings\n\nspec = importlib.util.find_spec('x')\n",
                "import importlib\nimport warnings\n\nspec = importlib.util.find_spec('x')\n"}));
}

TEST(MovedImportTest, ARelativeImportKeepsItsForm) {
  const std::vector<Document> repo = {
      Parse("from .pipeline import split\n", "pkg/parallel/stages.py"),
      Parse("", "pkg/__init__.py"),
      Parse("", "pkg/parallel/__init__.py"),
      Parse("def split():\n    pass\n", "pkg/parallel/pipeline_parallel.py"),
  };
  EXPECT_EQ(Results(Load("import_moved_module.yaml"), repo, 1),
            std::vector<std::string>{"from .pipeline_parallel import split\n"});
}

TEST(MovedImportTest, NotForAModuleOutsideTheRepo) {
  const std::vector<Document> repo = {
      Parse("from torch.distributed.pipeline import split\n", "pkg/stages.py"),
      Parse("def split():\n    pass\n", "pkg/pipeline_parallel.py"),
  };
  EXPECT_TRUE(Results(Load("import_moved_module.yaml"), repo, 1).empty());
}

TEST(UnassignedAttributeTest, NotWhenAnotherModuleAssignsIt) {
  const std::vector<Document> repo = {
      Parse("class Mixin:\n    def run(self):\n        return self.trainer_ref\n\n    def setup(self):\n"
            "        self.trainer = None\n",
            "pkg/mixin.py"),
      Parse("def attach(module, trainer):\n    module.trainer_ref = trainer\n", "pkg/attach.py"),
  };
  EXPECT_TRUE(Results(Load("attribute_never_assigned.yaml"), repo, 3).empty());
  const std::vector<Document> alone = {repo.front()};
  EXPECT_EQ(Results(Load("attribute_never_assigned.yaml"), alone, 3).size(), 1u);
}

TEST(UnassignedAttributeTest, NotForAModuleThatRegistersParametersByName) {
  const std::vector<Document> repo = {
      Parse("import torch.nn as nn\n\n\nclass Linear(nn.Module):\n    def __init__(self, n):\n"
            "        super().__init__()\n        self.weight_scale = 1\n"
            "        for i in (1, 2):\n            self.register_parameter(f\"weight{i}\", None)\n\n"
            "    def forward(self, x):\n        return x @ self.weight2\n",
            "pkg/linear.py")};
  EXPECT_TRUE(Results(Load("attribute_never_assigned.yaml"), repo, 12).empty());
}

}  // namespace
}  // namespace smallfix
