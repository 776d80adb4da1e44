#include "engine/localize/path_mapper.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace smallfix {
namespace {

using ::testing::Eq;
using ::testing::Optional;

PathMapper Mapper() {
  return PathMapper::ForFiles({"fastzero/runtime/engine.py", "fastzero/inference/engine.py",
                               "examples/train.py", "setup.py", "tests/test_zero.py",
                               "tests/conftest.py", "fastzero/nn/modules/module.py"});
}

TEST(PathMapperTest, CheckoutsAndInstalledPackages) {
  const PathMapper mapper = Mapper();
  EXPECT_THAT(mapper.Map("/home/x/src/proj/fastzero/runtime/engine.py"),
              Optional(Eq("fastzero/runtime/engine.py")));
  EXPECT_THAT(mapper.Map("/opt/conda/lib/python3.10/site-packages/fastzero/inference/engine.py"),
              Optional(Eq("fastzero/inference/engine.py")));
  EXPECT_THAT(mapper.Map("/usr/lib/python3/dist-packages/fastzero/runtime/engine.py"),
              Optional(Eq("fastzero/runtime/engine.py")));
  EXPECT_THAT(mapper.Map("fastzero/runtime/engine.py"), Optional(Eq("fastzero/runtime/engine.py")));
  EXPECT_THAT(mapper.Map("C:\\work\\proj\\fastzero\\runtime\\engine.py"),
              Optional(Eq("fastzero/runtime/engine.py")));
  EXPECT_THAT(mapper.Map("/ci/work/setup.py"), Optional(Eq("setup.py")));
}

TEST(PathMapperTest, FramesOutsideTheRepo) {
  const PathMapper mapper = Mapper();
  // torch's own files are context even when the repo has a file of the same shape.
  EXPECT_EQ(mapper.Map("/usr/lib/python3/dist-packages/torch/nn/modules/module.py"), std::nullopt);
  EXPECT_EQ(mapper.Map("/usr/lib/python3.11/importlib/__init__.py"), std::nullopt);
  EXPECT_EQ(mapper.Map("/opt/conda/lib/python3.10/site-packages/setup.py"), std::nullopt);
  // A user's own script that only shares the file name is not the repo's.
  EXPECT_EQ(mapper.Map("/home/chen/exp/train.py"), std::nullopt);
  EXPECT_EQ(mapper.Map("train.py"), std::nullopt);
  EXPECT_EQ(mapper.Map("<frozen importlib._bootstrap>"), std::nullopt);
  EXPECT_EQ(mapper.Map(""), std::nullopt);
}

TEST(PathMapperTest, VendoredCopiesOfOtherPackages) {
  const PathMapper mapper = PathMapper::ForFiles(
      {"fastzero/utils/config.py", "third_party/apex/apex/normalization/fused_layer_norm.py"});
  const std::string vendored =
      "/opt/conda/lib/python3.10/site-packages/apex/normalization/fused_layer_norm.py";
  ASSERT_EQ(mapper.Map(vendored), "third_party/apex/apex/normalization/fused_layer_norm.py");
  EXPECT_TRUE(mapper.IsOtherPackage(vendored, *mapper.Map(vendored)));
  const std::string own = "/opt/conda/lib/python3.10/site-packages/fastzero/utils/config.py";
  EXPECT_FALSE(mapper.IsOtherPackage(own, *mapper.Map(own)));
  EXPECT_FALSE(mapper.IsOtherPackage("/home/a/fastzero/fastzero/utils/config.py",
                                     "fastzero/utils/config.py"));
}

TEST(PathMapperTest, TestFiles) {
  EXPECT_TRUE(PathMapper::IsTestFile("tests/test_zero.py"));
  EXPECT_TRUE(PathMapper::IsTestFile("tests/conftest.py"));
  EXPECT_TRUE(PathMapper::IsTestFile("conftest.py"));
  EXPECT_TRUE(PathMapper::IsTestFile("pkg/engine_test.py"));
  EXPECT_FALSE(PathMapper::IsTestFile("fastzero/runtime/engine.py"));
  EXPECT_FALSE(PathMapper::IsTestFile("examples/train.py"));
}

TEST(PathMapperTest, MissingRepo) {
  EXPECT_FALSE(PathMapper::ForRepo("/nonexistent/repo").ok());
}

}  // namespace
}  // namespace smallfix
