#ifndef SMALLFIX_ENGINE_LOCALIZE_RANK_PREFIX_H_
#define SMALLFIX_ENGINE_LOCALIZE_RANK_PREFIX_H_

#include <string_view>

namespace smallfix {

// A log line with the prefixes that launchers and loggers add taken off.
struct PrefixedLine {
  int rank = -1;  // the rank the launcher named, -1 when none
  // The output stream the line belongs to: the rank, or for prefixes that name only a
  // process ("(pid=4417)") a key derived from the pid; -1 when the line has no prefix.
  int stream = -1;
  std::string_view text;  // the line the process printed (views the input)
};

// Recognises and strips per-line prefixes of multi-process launchers, so that
// interleaved output can be split into one stream per rank:
//   torchrun --tee / --redirects   "[default1]:..."
//   torch >= 2.2 / fastzero         "[rank1]:..."
//   srun -l                         "1: ..."  (also " 1: " padded)
//   mpirun --tag-output             "[1,0]<stdout>:..."
//   Ray / vLLM workers              "(pid=4417) ", "(RayWorkerWrapper pid=4417, ip=10.0.0.3) ",
//                                   "(VllmWorker rank=1 pid=4417) "
//   accelerate's subprocess echo    "stderr: " / "stdout: "
// and then a leading timestamp with an optional log level ("2024-05-01T10:22:03.114Z ",
// "[2024-05-01 10:22:03,114] [INFO] "), which container runtimes put on every line, and the
// logger headers that wrap every line of a logged traceback: vLLM's
// "ERROR 04-08 04:00:01 [core.py:390] ", glog's "[E0503 10:40:41.712 4100 file.cpp:475] "
// and NeMo's "[NeMo W 2024-03-20 18:55:16 nemo_logging:349] ".
// Prefixes may nest ("[default0]:[rank0]:"); each is stripped.
PrefixedLine SplitRankPrefix(std::string_view line);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_LOCALIZE_RANK_PREFIX_H_
