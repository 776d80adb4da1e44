// Parse throughput and memory of engine/source: parses every .py file under a directory
// (default: the torch package that Debian's python3-torch installs) with Document::Parse,
// which validates UTF-8, builds the line index and the tree-sitter tree.
//
//   build/benchmarks/parse_benchmark [DIR] [--repeat N]
//
// Prints files, lines, seconds, lines per second (parse time only, one thread) and the
// process's peak RSS. Goals: >= 250K lines/s, peak RSS < 200 MB.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "engine/source/document.h"

namespace {

// Every .py file under `dir`, sorted.
std::vector<std::filesystem::path> PythonFiles(const std::string& dir) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->is_regular_file() && it->path().extension() == ".py") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Thread CPU time says what one core does even when other work shares the machine.
double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/usr/lib/python3/dist-packages/torch";
  int repeat = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      dir = argv[i];
    }
  }
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    std::fprintf(stderr,
                 "parse_benchmark: %s is not a directory (install python3-torch or pass a DIR)\n",
                 dir.c_str());
    return 2;
  }
  const std::vector<std::filesystem::path> files = PythonFiles(dir);

  long long lines = 0, bytes = 0, broken = 0, rejected = 0;
  double seconds = 0, cpu_seconds = 0;
  std::vector<double> round_seconds;  // wall time of each pass, to show the spread
  for (int round = 0; round < repeat; ++round) {
    const double before = seconds;
    for (const auto& path : files) {
      std::ifstream in(path, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const size_t size = text.size();
      const long long newlines = std::count(text.begin(), text.end(), '\n');
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = ThreadCpuSeconds();
      absl::StatusOr<smallfix::Document> document =
          smallfix::Document::Parse(path.string(), std::move(text));
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      cpu_seconds += ThreadCpuSeconds() - cpu_start;
      if (round > 0) continue;
      if (!document.ok()) {
        ++rejected;
        continue;
      }
      lines += newlines;
      bytes += size;
      if (document->CountSyntaxErrors() > 0) ++broken;
    }
    round_seconds.push_back(seconds - before);
  }
  std::sort(round_seconds.begin(), round_seconds.end());
  const double per_round_lines = static_cast<double>(lines);
  const double slowest = per_round_lines / round_seconds.back();
  const double median = per_round_lines / round_seconds[round_seconds.size() / 2];
  const double fastest = per_round_lines / round_seconds.front();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double total_lines = static_cast<double>(lines) * repeat;
  std::printf(
      "%s\n",
      absl::StrFormat("parse_benchmark: %d files, %d lines, %.1f MB under %s (x%d)\n"
                      "  parse time      %.3f s wall, %.3f s CPU\n"
                      "  lines/second    %.0f (per CPU second: %.0f)\n"
                      "  per pass        min %.0f, median %.0f, max %.0f lines/s over %d pass(es)\n"
                      "  MB/second       %.1f\n"
                      "  peak RSS        %.1f MB\n"
                      "  files with syntax errors %d, rejected (not UTF-8) %d",
                      files.size(), lines, bytes / 1e6, dir, repeat, seconds, cpu_seconds,
                      total_lines / seconds, total_lines / cpu_seconds, slowest, median, fastest,
                      repeat, bytes * repeat / 1e6 / seconds, usage.ru_maxrss / 1024.0, broken,
                      rejected)
          .c_str());
  return 0;
}
