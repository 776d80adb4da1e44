#ifndef SMALLFIX_TESTS_FUZZ_FUZZ_MAIN_H_
#define SMALLFIX_TESTS_FUZZ_FUZZ_MAIN_H_

// Included once by each fuzz target after its LLVMFuzzerTestOneInput. With libFuzzer
// (SMALLFIX_LIBFUZZER, scripts/fuzz.sh) libFuzzer supplies main; built by another compiler the
// target is a plain driver, `TARGET FILE_OR_DIR...`, that runs each input once (the seeds and
// the reproducers of past findings), so every target is compiled and exercised in any build.
#ifndef SMALLFIX_LIBFUZZER
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

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
  std::cout << std::filesystem::path(argv[0]).filename().string() << ": ran " << inputs
            << " inputs\n";
  return 0;
}
#endif  // SMALLFIX_LIBFUZZER

#endif  // SMALLFIX_TESTS_FUZZ_FUZZ_MAIN_H_
