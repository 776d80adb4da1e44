// Replays the fuzz target on the corpus cases and on cut and spliced variants of them, so
// the gcc build exercises what scripts/fuzz.sh fuzzes with clang.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/log_parser_fuzz_target.h"
#include "tests/fuzz/shapes_fuzz_target.h"

namespace smallfix {
namespace {

void Fuzz(const std::string& data) {
  FuzzLogParser(reinterpret_cast<const uint8_t*>(data.data()), data.size());
}

TEST(FuzzSeedTest, CorpusCasesAndVariants) {
  const std::filesystem::path root =
      std::filesystem::path(SMALLFIX_SOURCE_DIR) / "tests/data/localize";
  int inputs = 0;
  for (const char* folder : {"cases", "shapes"}) {
    for (const auto& entry : std::filesystem::directory_iterator(root / folder)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      const std::string data = buffer.str();
      Fuzz(data);
      for (size_t cut = 1; cut < data.size(); cut += data.size() / 7 + 1) {
        Fuzz(data.substr(0, cut));      // truncated
        Fuzz(data.substr(cut));         // starts mid-line
        Fuzz(data.substr(cut) + data);  // spliced
        std::string flipped = data;
        flipped[cut] = static_cast<char>(flipped[cut] ^ 0x5a);
        Fuzz(flipped);
      }
      ++inputs;
    }
  }
  EXPECT_GE(inputs, 110);
}

// The same for the shapes target, on the pasted shapes and the meshtrain mini repo's
// sources and metadata.
TEST(FuzzSeedTest, ShapesSeedsAndVariants) {
  const std::filesystem::path root =
      std::filesystem::path(SMALLFIX_SOURCE_DIR) / "tests/data/localize";
  int inputs = 0;
  for (const char* folder : {"shapes", "meshtrain"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      const std::string data = buffer.str();
      auto fuzz = [](const std::string& d) {
        FuzzShapes(reinterpret_cast<const uint8_t*>(d.data()), d.size());
      };
      fuzz(data);
      for (size_t cut = 1; cut < data.size(); cut += data.size() / 5 + 1) {
        fuzz(data.substr(0, cut));
        fuzz(data.substr(cut) + data);
      }
      ++inputs;
    }
  }
  EXPECT_GE(inputs, 100);
}

}  // namespace
}  // namespace smallfix
