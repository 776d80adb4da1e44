#include "engine/index/value_origin.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::Parse;

std::vector<std::string> Places(const std::vector<ValueOrigin>& origins) {
  std::vector<std::string> places;
  for (const ValueOrigin& origin : origins) {
    places.push_back(origin.file + ":" + std::to_string(origin.line) + "/" + std::to_string(origin.hops));
  }
  return places;
}

TEST(ValueOriginTest, FollowsTheAssignmentIntoTheCalleeAndItsEnd) {
  const Document loader = Parse(
      "def load_state(path, cache):\n"      // 1
      "    if path in cache:\n"              // 2
      "        state = cache[path]\n"        // 3
      "        return state\n",              // 4
      "pkg/io.py");
  const Document train = Parse(
      "from pkg.io import load_state\n"     // 1
      "\n"                                   // 2
      "def resume(path, cache):\n"          // 3
      "    state = None\n"                   // 4
      "    state = load_state(path, cache)\n"  // 5
      "    return state.step\n",            // 6
      "pkg/train.py");
  const RepoIndex index = RepoIndex::FromDocuments({loader, train});
  DocumentLoader load = [&](const std::string& file) -> absl::StatusOr<Document> {
    if (file == "pkg/io.py") return loader;
    return absl::NotFoundError(file);
  };
  const std::vector<ValueOrigin> origins = OriginsOf(train, 6, "state", &index, load);
  // The nearest assignment first, then the callee's last statement (the if it can run past:
  // an implicit None), its return, and where the returned name was set there.
  EXPECT_THAT(Places(origins), ::testing::ElementsAre("pkg/train.py:5/1", "pkg/train.py:4/1",
                                                      "pkg/io.py:2/2", "pkg/io.py:4/2", "pkg/io.py:3/3"));
}

TEST(ValueOriginTest, SelfAttributesComeFromAnyMethodAndHopsAreCapped) {
  const Document document = Parse(
      "class Engine:\n"                      // 1
      "    def __init__(self):\n"            // 2
      "        self.scaler = None\n"         // 3
      "\n"                                   // 4
      "    def step(self, loss):\n"          // 5
      "        self.scaler.scale(loss)\n");  // 6
  const RepoIndex index = RepoIndex::FromDocuments({document});
  EXPECT_THAT(Places(OriginsOf(document, 6, "self.scaler", &index, nullptr)),
              ::testing::ElementsAre("pkg/mod.py:3/1"));
  EXPECT_TRUE(OriginsOf(document, 6, "unknown", &index, nullptr).empty());
}

}  // namespace
}  // namespace smallfix
