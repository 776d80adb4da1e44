// Document::Reparse gives the tree a parse from scratch gives, for edits of every shape.
#include <string>
#include <vector>

#include "engine/source/document.h"
#include "engine/source/edit.h"
#include "gtest/gtest.h"

namespace smallfix {
namespace {

std::string Sexp(const Document& document) {
  char* text = ts_node_string(document.root());
  std::string sexp(text);
  free(text);
  return sexp;
}

// Applies `edits` to `before` both ways and compares the trees (and the text).
void ExpectSameTree(const std::string& before, const std::vector<Edit>& edits) {
  const Document document = *Document::Parse("m.py", before);
  EditSet set;
  std::vector<Document::TextChange> changes;
  for (const Edit& edit : edits) ASSERT_TRUE(set.Add(edit).ok());
  for (const Edit& edit : set.edits()) changes.push_back({edit.start, edit.end, edit.replacement.size()});
  const std::string after = *set.Apply(before);
  absl::StatusOr<Document> fresh = Document::Parse("m.py", after);
  absl::StatusOr<Document> reparsed = Document::Reparse(document, after, changes);
  ASSERT_TRUE(fresh.ok() && reparsed.ok());
  EXPECT_EQ(reparsed->text(), after);
  EXPECT_EQ(Sexp(*reparsed), Sexp(*fresh)) << after;
  EXPECT_EQ(reparsed->CountSyntaxErrors(), fresh->CountSyntaxErrors());
}

const std::string kModule =
    "import torch\n\n\n"
    "def step(model, grads=None):\n"
    "    for p in model.parameters():\n"
    "        n = p.grad.numel()\n"
    "        if n > 0:\n"
    "            p.grad.div_(n)\n"
    "    return model\n\n\n"
    "class Reducer:\n"
    "    def reduce(self, xs):\n"
    "        return [x * 2 for x in xs]\n";

TEST(ReparseTest, AnInsertedGuard) {
  const size_t at = kModule.find("        n = p.grad");
  ExpectSameTree(kModule, {{at, at, "        if p.grad is None:\n            continue\n"}});
}

TEST(ReparseTest, AReplacementOfAnotherLength) {
  const size_t at = kModule.find("n > 0");
  ExpectSameTree(kModule, {{at, at + 5, "n is not None and n > 0"}});
}

TEST(ReparseTest, SeveralEditsAcrossLinesAndADeletion) {
  const size_t def = kModule.find("grads=None");
  const size_t first = kModule.find("        n = p.grad");
  const size_t ret = kModule.find("return [x");
  ExpectSameTree(kModule, {{def, def + 10, "grads=None,\n         scale=1.0"},
                           {first, first, "        if p.grad is None:\n            continue\n"},
                           {ret, ret + 6, "yield"}});
  const size_t line = kModule.find("            p.grad.div_(n)\n");
  ExpectSameTree(kModule, {{line, line + std::string("            p.grad.div_(n)\n").size(), ""}});
}

TEST(ReparseTest, AnEditThatBreaksAndOneInAByteOrderMarkedCrlfFile) {
  const size_t at = kModule.find("if n > 0:");
  ExpectSameTree(kModule, {{at + 8, at + 9, ""}});  // the colon removed: an error node
  const std::string crlf = "\xEF\xBB\xBFx = 1\r\nif x:\r\n    y = 2\r\n";
  const size_t y = crlf.find("y = 2");
  ExpectSameTree(crlf, {{y, y, "z = 3\r\n    "}});
}

TEST(ApplyEditsTest, ResultMatchesAFreshParse) {
  const Document document = *Document::Parse("m.py", kModule);
  EditSet edits;
  const size_t at = kModule.find("        n = p.grad");
  ASSERT_TRUE(edits.Add({at, at, "        if p.grad is None:\n            continue\n"}).ok());
  absl::StatusOr<Document> edited = ApplyEdits(document, edits);
  ASSERT_TRUE(edited.ok());
  EXPECT_EQ(Sexp(*edited), Sexp(*Document::Parse("m.py", std::string(edited->text()))));
}

// Deleting across the newline between two assignments of a class body: the re-parsed tree
// holds a MISSING newline that the grammar hides from a walk of the tree, and recovers
// differently from a fresh parse; both count a syntax error, so ApplyEdits refuses the edit
// (the edit fuzzer found this).
TEST(ReparseTest, AJoinedLineIsASyntaxErrorBothWays) {
  const std::string before = R"py("""A fake accelerator plugin used by the tests."""
import torch

from accelplug.accelerator import Accelerator


class FakeNPUAccelerator(Accelerator):
    name = "fake_npu"
    communication_backend = "gloo"

    def is_available(self):
        return True

    def device(self, index=0):
        return torch.device("cpu")
)py";
  const size_t import = before.find(" torch");
  const size_t join = before.find("\n    communic");
  const Document document = *Document::Parse("m.py", before);
  EditSet edits;
  ASSERT_TRUE(edits.Add({import, import + 3, ""}).ok());  // import torch -> importrch
  ASSERT_TRUE(edits.Add({join, join + 13, ""}).ok());     // name = "x"ation_backend = ...
  std::vector<Document::TextChange> changes;
  for (const Edit& edit : edits.edits()) changes.push_back({edit.start, edit.end, 0});
  const std::string after = *edits.Apply(before);
  absl::StatusOr<Document> reparsed = Document::Reparse(document, after, changes);
  absl::StatusOr<Document> fresh = Document::Parse("m.py", after);
  ASSERT_TRUE(reparsed.ok() && fresh.ok());
  EXPECT_GT(fresh->CountSyntaxErrors(), 0);
  EXPECT_GT(reparsed->CountSyntaxErrors(), 0) << Sexp(*reparsed);
  EXPECT_FALSE(ApplyEdits(document, edits).ok());
}

}  // namespace
}  // namespace smallfix
