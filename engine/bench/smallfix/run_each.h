#ifndef SMALLFIX_ENGINE_BENCH_SMALLFIX_RUN_EACH_H_
#define SMALLFIX_ENGINE_BENCH_SMALLFIX_RUN_EACH_H_

#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace smallfix::bench {

// The one loop of every benchmark (bugs, realfix fixes, realbugs): `run(i)` for i in [0, count),
// `jobs` at a time, taken in index order; once `cancel` is set no new one starts. Returns the
// results of those that ran, in index order. `run` is called from several threads at once.
template <typename Result>
std::vector<Result> RunEach(size_t count, int jobs, const std::atomic<bool>* cancel,
                            const std::function<Result(size_t)>& run) {
  std::vector<Result> results(count);
  std::vector<char> ran(count, 0);  // not vector<bool>: threads write neighbours
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < count;) {
      if (cancel != nullptr && cancel->load()) return;
      results[i] = run(i);
      ran[i] = 1;  // each index is written by one thread only
    }
  };
  std::vector<std::thread> workers;
  for (int j = 0; j < std::clamp<int>(jobs, 1, std::max<int>(1, static_cast<int>(count))); ++j) {
    workers.emplace_back(work);
  }
  for (std::thread& worker : workers) worker.join();
  std::vector<Result> done;
  for (size_t i = 0; i < count; ++i) {
    if (ran[i]) done.push_back(std::move(results[i]));
  }
  return done;
}

// Writes a benchmark output (`flag` names it: "--json"); false, said on stderr, when it cannot.
inline bool WriteOutput(const std::string& path, const std::string& text, const char* flag) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) std::cerr << "smallfix: cannot write " << flag << " " << path << "\n";
  return static_cast<bool>(out);
}

}  // namespace smallfix::bench

#endif  // SMALLFIX_ENGINE_BENCH_SMALLFIX_RUN_EACH_H_
