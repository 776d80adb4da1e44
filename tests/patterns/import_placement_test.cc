#include "engine/patterns/import_placement.h"

#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::ApplyChecked;
using testing::Parse;

std::string Place(const std::string& code, std::string_view statement) {
  const Document document = Parse(code);
  const IsFirstParty first_party = [](std::string_view top) { return top == "pkg"; };
  return ApplyChecked(document, PlaceImport(document, statement, first_party));
}

constexpr char kSections[] = R"py("""Doc."""
import os
import sys
from typing import Any

import torch
from torch import nn

from pkg.core import Precision

x = 1
)py";

TEST(ImportPlacementTest, PlainStandardLibraryImportGoesInSortedPlace) {
  EXPECT_EQ(Place(kSections, "import re"),
            "\"\"\"Doc.\"\"\"\nimport os\nimport re\nimport sys\nfrom typing import Any\n\nimport torch\n"
            "from torch import nn\n\nfrom pkg.core import Precision\n\nx = 1\n");
  // Last of the plain imports: before the block's from-imports.
  EXPECT_EQ(Place(kSections, "import warnings"),
            "\"\"\"Doc.\"\"\"\nimport os\nimport sys\nimport warnings\nfrom typing import Any\n\nimport torch\n"
            "from torch import nn\n\nfrom pkg.core import Precision\n\nx = 1\n");
}

TEST(ImportPlacementTest, FirstPartyFromImportAfterItsPackage) {
  EXPECT_EQ(Place(kSections, "from pkg.utils import dist"),
            "\"\"\"Doc.\"\"\"\nimport os\nimport sys\nfrom typing import Any\n\nimport torch\n"
            "from torch import nn\n\nfrom pkg.core import Precision\nfrom pkg.utils import dist\n\nx = 1\n");
}

TEST(ImportPlacementTest, JoinsAnExistingFromImportInItsOrder) {
  EXPECT_EQ(Place("from typing import TYPE_CHECKING, Callable, cast\n", "from typing import Any"),
            "from typing import TYPE_CHECKING, Any, Callable, cast\n");
  EXPECT_EQ(Place("from dataclasses import asdict, dataclass, field\n", "from dataclasses import replace"),
            "from dataclasses import asdict, dataclass, field, replace\n");
  // Not sorted: appended.
  EXPECT_EQ(Place("from m import b, a\n", "from m import c"), "from m import b, a, c\n");
  EXPECT_EQ(Place("from m import (\n    a,\n    c,\n)\n", "from m import b"), "from m import (\n    a,\n    b,\n    c,\n)\n");
  EXPECT_EQ(Place("from m import (\n    a,\n    b,\n)\n", "from m import c"), "from m import (\n    a,\n    b,\n    c,\n)\n");
}

TEST(ImportPlacementTest, ASectionTheFileLacksGetsItsOwnBlock) {
  EXPECT_EQ(Place("import os\n\nfrom pkg import core\n", "import numpy as np"),
            "import os\n\nimport numpy as np\n\nfrom pkg import core\n");
  EXPECT_EQ(Place("import torch\n", "import os"), "import os\n\nimport torch\n");
}

TEST(ImportPlacementTest, MixedStyleSortsPlainAndFromTogether) {
  EXPECT_EQ(Place("import abc\nfrom collections import deque\nimport os\n", "import copy"),
            "import abc\nfrom collections import deque\nimport copy\nimport os\n");
}

TEST(ImportPlacementTest, AlreadyImportedOrNothingToGoBy) {
  const IsFirstParty none = [](std::string_view) { return false; };
  EXPECT_TRUE(absl::IsNotFound(PlaceImport(Parse("import os\n"), "import os", none).status()));
  EXPECT_TRUE(absl::IsNotFound(PlaceImport(Parse("from m import a, b\n"), "from m import b", none).status()));
  EXPECT_TRUE(absl::IsNotFound(PlaceImport(Parse("x = 1\n"), "import os", none).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(PlaceImport(Parse("import os\n"), "x = 1", none).status()));
}

}  // namespace
}  // namespace smallfix
