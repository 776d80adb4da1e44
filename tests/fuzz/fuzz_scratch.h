#ifndef SMALLFIX_TESTS_FUZZ_FUZZ_SCRATCH_H_
#define SMALLFIX_TESTS_FUZZ_FUZZ_SCRATCH_H_

#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace smallfix {

// A directory of this fuzzing process for the targets whose code under test reads a file
// (a template, .smallfix.yaml), removed when the process exits.
inline const std::string& FuzzScratchDir() {
  static const std::string* const dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "smallfix-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) abort();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(FuzzScratchDir(), ignored);
    });
    return new std::string(pattern);
  }();
  return *dir;
}

// Writes `size` bytes of `data` to FuzzScratchDir()/name and returns the path.
inline std::string WriteFuzzFile(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = FuzzScratchDir() + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) abort();
  std::fclose(file);
  return path;
}

}  // namespace smallfix

#endif  // SMALLFIX_TESTS_FUZZ_FUZZ_SCRATCH_H_
