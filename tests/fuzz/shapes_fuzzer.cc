// libFuzzer target for the multi-node and installed-package readers (scripts/fuzz.sh
// shapes_fuzzer builds it with clang). Built with another compiler, it is a plain driver that
// runs each input given on the command line once.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/shapes_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smallfix::FuzzShapes(data, size);
  return 0;
}

#ifndef SMALLFIX_LIBFUZZER
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  int inputs = 0;
  auto run = [&](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string data = buffer.str();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    ++inputs;
  };
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) run(entry.path());
      }
    } else {
      run(path);
    }
  }
  std::cout << "shapes_fuzzer: ran " << inputs << " inputs\n";
  return 0;
}
#endif
