#include "engine/localize/assertion_writers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "engine/base/temp_dir.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

// Line numbers are those of the texts below (1-based).
constexpr char kTokenizer[] =
    "class Tokenizer:\n"                             // 1
    "    def __init__(self, vocab):\n"               // 2
    "        self.vocab = vocab\n"                   // 3
    "        self.counts = {}\n"                     // 4
    "\n"                                             // 5
    "    def special(self, token, bos, eos):\n"      // 6
    "        if token == bos:\n"                     // 7
    "            self.bos_id = self.vocab[token]\n"  // 8
    "        elif token == eos:\n"                   // 9
    "            self.eos_id = self.vocab[token]\n"  // 10
    "        self.counts.update({token: 1})\n"       // 11
    "        self.seen.add_(1)\n"                    // 12
    "\n"                                             // 13
    "    def reset(self):\n"                         // 14
    "        self.eos_id = None\n"                   // 15
    "\n"                                             // 16
    "    def encode(self, text):\n"                  // 17
    "        self.encode = None\n";                  // 18

constexpr char kTest[] =
    "def test_same_token():\n"                                // 1
    "    tok = make()\n"                                      // 2
    "    assert tok.bos_id == tok.eos_id, tok.encode('x')\n"  // 3
    "    assert tok.counts.get('x') == tok.seen\n";           // 4

class AssertionWritersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = TempDir::Create("assertion-writers-test");
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_.emplace(*std::move(dir));
    std::filesystem::create_directories(dir_->path() + "/tests");
    std::ofstream(dir_->path() + "/tok.py") << kTokenizer;
    std::ofstream(dir_->path() + "/tests/test_tok.py") << kTest;
  }
  std::optional<TempDir> dir_;
};

TEST_F(AssertionWritersTest, WritesOfTheAssertedAttributesInTheFunctionsTheTestRan) {
  SourceFacts facts(dir_->path());
  // The failing run ran `__init__`, `special` up to its `if` branch (never the elif) and
  // `encode`, not `reset`.
  const LineScores coverage = {{{"tok.py", 3}, 0.5},
                               {{"tok.py", 7}, 1.0},
                               {{"tok.py", 8}, 1.0},
                               {{"tok.py", 11}, 0.5},
                               {{"tok.py", 18}, 0.5}};
  // Both branches' writes and their headers; the elif's, which the failing run skipped,
  // above the if's. The assignment in `reset` is in a function the test did not run;
  // `encode` is only called.
  const double ran = kRunWrite, skipped = kSkippedWrite;
  EXPECT_THAT(AssertionWriters(facts, {{"tests/test_tok.py", 3}}, coverage),
              ElementsAre(Pair(Pair("tok.py", 7), ran), Pair(Pair("tok.py", 8), ran),
                          Pair(Pair("tok.py", 9), skipped), Pair(Pair("tok.py", 10), skipped)));
  // Container and torch in-place methods write the attribute they are called on; the empty
  // dict `__init__` starts `counts` at is not a suspect.
  EXPECT_THAT(AssertionWriters(facts, {{"tests/test_tok.py", 4}}, coverage),
              ElementsAre(Pair(Pair("tok.py", 11), ran), Pair(Pair("tok.py", 12), skipped)));
}

TEST_F(AssertionWritersTest, NothingWithoutCoverageOrReadNames) {
  SourceFacts facts(dir_->path());
  EXPECT_TRUE(AssertionWriters(facts, {{"tests/test_tok.py", 3}}, {}).empty());
  const LineScores coverage = {{{"tok.py", 8}, 1.0}};
  EXPECT_TRUE(AssertionWriters(facts, {{"tests/test_tok.py", 2}}, coverage).empty());
  EXPECT_TRUE(AssertionWriters(facts, {{"tests/missing.py", 3}}, coverage).empty());
}

}  // namespace
}  // namespace smallfix
