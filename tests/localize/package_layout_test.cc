#include "engine/localize/package_layout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/localize/path_mapper.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::Optional;

TEST(PackageLayoutTest, SetupPyPackageDir) {
  const PackageLayout layout = PackageLayout::FromTexts(
      "from setuptools import setup\nsetup(\n    name='ringcomm',\n"
      "    package_dir={'ringcomm': '.', 'ringcomm.ops': 'csrc/ops'},\n"
      "    packages=['ringcomm', 'ringcomm.accelerator', 'ringcomm.ops'],\n)\n",
      "", "");
  EXPECT_TRUE(layout.Installs("ringcomm"));
  EXPECT_FALSE(layout.Installs("torch"));
  EXPECT_THAT(layout.RepoPaths("ringcomm/ops/fused.py"),
              ElementsAre("csrc/ops/fused.py", "ops/fused.py"));
  EXPECT_THAT(layout.RepoPaths("ringcomm/accelerator/cpu.py"), ElementsAre("accelerator/cpu.py"));
  EXPECT_TRUE(layout.RepoPaths("torch/nn/modules/module.py").empty());
}

TEST(PackageLayoutTest, SetupPyDictCallAndSrcLayout) {
  const PackageLayout layout =
      PackageLayout::FromTexts("setup(package_dir=dict(meshkit='lib'), name=\"mesh-kit\")", "", "");
  EXPECT_THAT(layout.RepoPaths("meshkit/a.py"), ElementsAre("lib/a.py"));
  EXPECT_TRUE(layout.Installs("mesh_kit"));
  const PackageLayout src = PackageLayout::FromTexts("setup(package_dir={'': 'src'})", "", "");
  EXPECT_THAT(src.RepoPaths("pkg/a.py"), ElementsAre("src/pkg/a.py"));
}

TEST(PackageLayoutTest, SetupCfgOptions) {
  const PackageLayout layout = PackageLayout::FromTexts(
      "",
      "[metadata]\nname = ringcomm\n\n[options]\npackage_dir =\n    ringcomm = ./\n"
      "    ringcomm.kernels = native/kernels\npackages =\n    ringcomm\n    ringcomm.kernels\n",
      "");
  EXPECT_THAT(layout.RepoPaths("ringcomm/kernels/k.py"),
              ElementsAre("native/kernels/k.py", "kernels/k.py"));
  EXPECT_TRUE(layout.Installs("ringcomm"));
}

TEST(PackageLayoutTest, PyprojectSetuptoolsPoetryAndHatch) {
  const PackageLayout setuptools = PackageLayout::FromTexts(
      "", "",
      "[project]\nname = \"meshtrain\"\n\n[tool.setuptools]\npackages = [\"meshtrain\",\n"
      "  \"meshtrain.comm\"]\n\n[tool.setuptools.package-dir]\nmeshtrain = \".\"\n");
  EXPECT_THAT(setuptools.RepoPaths("meshtrain/comm/wrappers.py"), ElementsAre("comm/wrappers.py"));
  const PackageLayout inline_table =
      PackageLayout::FromTexts("", "", "[tool.setuptools]\npackage-dir = {\"\" = \"python\"}\n");
  EXPECT_THAT(inline_table.RepoPaths("pkg/x.py"), ElementsAre("python/pkg/x.py"));
  const PackageLayout poetry =
      PackageLayout::FromTexts("", "",
                               "[tool.poetry]\nname = \"ringopt\"\npackages = [{ include = "
                               "\"ringopt\", from = \"lib\" }]\n");
  EXPECT_THAT(poetry.RepoPaths("ringopt/adam.py"), ElementsAre("lib/ringopt/adam.py"));
  const PackageLayout hatch = PackageLayout::FromTexts(
      "", "", "[tool.hatch.build.targets.wheel]\npackages = [\"src/ringio\"]\n");
  EXPECT_THAT(hatch.RepoPaths("ringio/read.py"), ElementsAre("src/ringio/read.py"));
  EXPECT_TRUE(PackageLayout::FromTexts("", "", "").empty());
}

TEST(PackageLayoutTest, MapperUsesTheLayoutThenAUniqueSuffix) {
  const PathMapper mapper = PathMapper::ForFiles(
      {"accelerator/cpu.py", "comm/wrappers.py", "nn/modules/module.py", "a/util.py", "b/util.py"},
      PackageLayout::FromTexts("setup(name='ringcomm', package_dir={'ringcomm': '.'})", "", ""));
  const std::string site = "/opt/conda/lib/python3.10/site-packages/";
  EXPECT_THAT(mapper.Map(site + "ringcomm/accelerator/cpu.py"), Optional(Eq("accelerator/cpu.py")));
  // torch's own file is not the repo's, even with the same path under the package.
  EXPECT_EQ(mapper.Map(site + "torch/nn/modules/module.py"), std::nullopt);
  EXPECT_FALSE(mapper.IsOtherPackage(site + "ringcomm/comm/wrappers.py", "comm/wrappers.py"));

  // Installed, but the metadata says nothing of the layout: a suffix naming one file only.
  const PathMapper guessed = PathMapper::ForFiles(
      {"accelerator/cpu.py", "a/util.py", "b/util.py"},
      PackageLayout::FromTexts("setup(name='ringcomm', packages=find_packages())", "", ""));
  EXPECT_THAT(guessed.Map(site + "ringcomm/x/accelerator/cpu.py"),
              Optional(Eq("accelerator/cpu.py")));
  EXPECT_EQ(guessed.Map(site + "ringcomm/util.py"), std::nullopt);
}

}  // namespace
}  // namespace smallfix
