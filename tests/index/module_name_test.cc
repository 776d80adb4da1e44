#include "engine/index/module_name.h"

#include "gtest/gtest.h"

namespace smallfix {
namespace {

TEST(ModuleNameTest, FromRepoRelativePaths) {
  EXPECT_EQ(ModuleNameForPath("pkg/zero/reduce.py"), "pkg.zero.reduce");
  EXPECT_EQ(ModuleNameForPath("pkg/__init__.py"), "pkg");
  EXPECT_EQ(ModuleNameForPath("./train.py"), "train");
  EXPECT_EQ(ModuleNameForPath("nn/modules/linear.py", "torch"), "torch.nn.modules.linear");
  EXPECT_EQ(ModuleNameForPath("__init__.py", "torch"), "torch");
  EXPECT_TRUE(IsPackageInit("pkg/__init__.py"));
  EXPECT_FALSE(IsPackageInit("pkg/not__init__.py"));
}

TEST(ModuleNameTest, RelativeImports) {
  EXPECT_EQ(ResolveRelativeModule("pkg.zero.reduce", false, 1, ""), "pkg.zero");
  EXPECT_EQ(ResolveRelativeModule("pkg.zero.reduce", false, 2, "comm"), "pkg.comm");
  EXPECT_EQ(ResolveRelativeModule("pkg.zero", true, 1, "reduce"), "pkg.zero.reduce");
  EXPECT_EQ(ResolveRelativeModule("pkg.zero", true, 2, ""), "pkg");
  EXPECT_EQ(ResolveRelativeModule("pkg.zero.reduce", false, 4, "x"), std::nullopt);
}

}  // namespace
}  // namespace smallfix
