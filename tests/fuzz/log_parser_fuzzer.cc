// libFuzzer target for the failure-log parser (scripts/fuzz.sh builds it with clang).
// Built with another compiler, it is a plain driver: `log_parser_fuzzer FILE_OR_DIR...`
// runs each input once (the seed corpus), so the target is compiled and exercised anyway.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/log_parser_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smallfix::FuzzLogParser(data, size);
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
  std::cout << "log_parser_fuzzer: ran " << inputs << " inputs\n";
  return 0;
}
#endif
