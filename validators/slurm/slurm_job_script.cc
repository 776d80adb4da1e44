#include "validators/slurm/slurm_job_script.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "engine/base/concat.h"
#include "validators/pytest_command.h"
#include "validators/ranks/torchrun_env.h"

namespace smallfix {
namespace {

// How long a failed rank waits before it exits (and srun stops its peers).
constexpr int kRankGraceSeconds = 5;

// Where one rank sits, in Slurm's task variables; the rendezvous comes from job.sh.
const RankPlace kSlurmPlace = {
    "${SLURM_PROCID}",          "${SLURM_LOCALID}",        "${SLURM_NTASKS}",
    "${SLURM_NTASKS_PER_NODE}", "${SMALLFIX_MASTER_ADDR}", "${SMALLFIX_MASTER_PORT}",
};

bool HasSpace(const std::string& text) {
  return text.find_first_of(" \t\r\n") != std::string::npos;
}

// A per-rank path in the run directory, as shell text that expands to this rank's file.
std::string RankPathInShell(const std::string& run_dir, const char* suffix) {
  return Concat(ShellQuote(run_dir + "/rank"), "\"${SLURM_PROCID}\"", suffix);
}

}  // namespace

std::string JobScriptPath(const std::string& run_dir) { return run_dir + "/job.sh"; }
std::string RankScriptPath(const std::string& run_dir) { return run_dir + "/rank.sh"; }
std::string JobOutputPath(const std::string& run_dir) { return run_dir + "/job.out"; }
std::string RankOutputPath(const std::string& run_dir, int rank) {
  return absl::StrFormat("%s/rank%d.out", run_dir, rank);
}
std::string RankExitPath(const std::string& run_dir, int rank) {
  return absl::StrFormat("%s/rank%d.exit", run_dir, rank);
}

int TimeLimitMinutes(double seconds) {
  if (!(seconds > 0)) return 1;
  return std::max(1, static_cast<int>(std::ceil(seconds / 60)));
}

absl::Status CheckJobSpec(const SlurmJobSpec& spec) {
  const SlurmOptions& slurm = spec.slurm;
  if (slurm.nodes < 1)
    return absl::InvalidArgumentError("slurm: the number of nodes must be 1 or more");
  if (spec.world_size % slurm.nodes != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("slurm: %d ranks do not spread evenly over %d nodes; give a world size "
                        "that is a multiple of the nodes",
                        spec.world_size, slurm.nodes));
  }
  if (slurm.gpus_per_node < 0)
    return absl::InvalidArgumentError("slurm: GPUs per node must be 0 or more");
  for (const auto& [what, value] :
       {std::pair{"partition", &slurm.partition}, std::pair{"account", &slurm.account},
        std::pair{"qos", &slurm.qos}, std::pair{"job name", &spec.name}}) {
    if (HasSpace(*value))
      return absl::InvalidArgumentError(
          absl::StrFormat("slurm: the %s '%s' has a space", what, *value));
  }
  return absl::OkStatus();
}

std::string JobScript(const SlurmJobSpec& spec) {
  const SlurmOptions& slurm = spec.slurm;
  std::string out = "#!/bin/bash\n";
  out += Concat("# smallfix: a test command on ", std::to_string(spec.world_size),
                " rank(s) as a Slurm job (generated; validators/slurm_job_script.h).\n");
  out += Concat("#SBATCH --job-name=", spec.name, "\n");
  out += absl::StrFormat("#SBATCH --nodes=%d\n", slurm.nodes);
  out +=
      absl::StrFormat("#SBATCH --ntasks-per-node=%d\n", spec.world_size / std::max(1, slurm.nodes));
  out += absl::StrFormat("#SBATCH --time=%d\n", spec.time_limit_minutes);
  if (slurm.gpus_per_node > 0)
    out += absl::StrFormat("#SBATCH --gpus-per-node=%d\n", slurm.gpus_per_node);
  if (!slurm.partition.empty()) out += Concat("#SBATCH --partition=", slurm.partition, "\n");
  if (!slurm.account.empty()) out += Concat("#SBATCH --account=", slurm.account, "\n");
  if (!slurm.qos.empty()) out += Concat("#SBATCH --qos=", slurm.qos, "\n");
  // A preempted or failed-to-launch job is reported as such, not silently run again.
  out += "#SBATCH --no-requeue\n";
  out += "set -u\n";
  for (const auto& [key, value] : spec.env)
    out += Concat("export ", key, "=", ShellQuote(value), "\n");
  out +=
      "# Rendezvous for torch.distributed: rank 0 runs on the job's first node, where this script "
      "runs.\n"
      "SMALLFIX_MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" 2>/dev/null | head "
      "-n 1)\n"
      "SMALLFIX_MASTER_ADDR=\"${SMALLFIX_MASTER_ADDR:-$(hostname)}\"\n"
      "# A node name that does not resolve (a test cluster's): the node's address from Slurm.\n"
      "if ! getent hosts \"$SMALLFIX_MASTER_ADDR\" >/dev/null 2>&1; then\n"
      "  address=$(scontrol show node -o \"$SMALLFIX_MASTER_ADDR\" 2>/dev/null | sed -n "
      "'s/.*NodeAddr=\\([^ ]*\\).*/\\1/p')\n"
      "  SMALLFIX_MASTER_ADDR=\"${address:-$SMALLFIX_MASTER_ADDR}\"\n"
      "fi\n"
      "export SMALLFIX_MASTER_ADDR\n"
      "SMALLFIX_MASTER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind((\"\", 0)); "
      "print(s.getsockname()[1])' 2>/dev/null)\n"
      "export SMALLFIX_MASTER_PORT=\"${SMALLFIX_MASTER_PORT:-$((20000 + RANDOM % 20000))}\"\n";
  out += Concat("exec srun --kill-on-bad-exit=1 /bin/sh ", ShellQuote(RankScriptPath(spec.run_dir)),
                "\n");
  return out;
}

std::string RankScript(const SlurmJobSpec& spec) {
  std::string out = "#!/bin/sh\n";
  out += Concat("# smallfix: one rank of job ", spec.name,
                " (generated; validators/slurm_job_script.h).\n");
  for (const auto& [key, value] : TorchrunEnvironment(kSlurmPlace))
    out += Concat("export ", key, "=\"", value, "\"\n");
  if (spec.memory_limit_bytes > 0)
    out += absl::StrFormat("ulimit -v %d\n", spec.memory_limit_bytes >> 10);
  out += Concat("cd ", ShellQuote(spec.workdir), " || exit 1\n");
  std::string command = spec.command;
  if (spec.pytest) command += Concat(" --junitxml=", RankPathInShell(spec.run_dir, ".xml"));
  // A subshell, so that the command's own `cd`, `exit` or trailing comment stays inside it.
  out += Concat("(\n", command, "\n) > ", RankPathInShell(spec.run_dir, ".out"), " 2>&1\n");
  out += "status=$?\n";
  out += Concat("echo \"$status\" > ", RankPathInShell(spec.run_dir, ".exit"), "\n");
  // A failed rank waits for its peers' exit statuses (up to the grace period), so that
  // ranks that all failed together end at once and one stuck in a collective is not
  // waited for longer.
  out += Concat("if [ \"$status\" -ne 0 ]; then\n  i=0\n  while [ \"$i\" -lt ",
                std::to_string(kRankGraceSeconds * 10), " ]; do\n    set -- ",
                ShellQuote(spec.run_dir + "/rank"), "*.exit\n",
                "    [ \"$#\" -ge \"${SLURM_NTASKS}\" ] && [ -e \"$1\" ] && break\n",
                "    sleep 0.1\n    i=$((i + 1))\n  done\nfi\n");
  out += "exit \"$status\"\n";
  return out;
}

std::vector<std::string> SbatchArguments(const SlurmJobSpec& spec) {
  std::vector<std::string> argv = {"sbatch", "--parsable", "--chdir=" + spec.workdir,
                                   "--output=" + JobOutputPath(spec.run_dir)};
  for (const std::string& arg : spec.slurm.extra_args) argv.push_back(arg);
  argv.push_back(JobScriptPath(spec.run_dir));
  return argv;
}

}  // namespace smallfix
