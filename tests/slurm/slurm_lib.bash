# Helpers for the `--runner slurm` end-to-end tests (tests/slurm/*_test.sh). Sourced with the
# smallfix binary and the source tree as arguments; adds to tests/cli/repair_e2e_lib.bash:
#   SLURM_CONF pointed at scripts/slurm-local.sh's cluster; exit 77 (skip) when it is not up
#   our_jobs STATES           "ID NAME STATE REASON" of jobs named $SLURM_PREFIX-*, in STATES
#   job_prefix FILE           the job-name prefix a repair printed on stderr
#   make_ckpt_repo DEST       a git repo where save_checkpoint() calls optimizer.state_dict() with
#                             optimizer=None; its two tests each hang under one of the two best-ranked
#                             candidates (return early; skip the optimizer's entry): test_save.py
#                             waits for the checkpoint file, test_resume.py for its optimizer entry
source "$(dirname "${BASH_SOURCE[0]}")/../cli/repair_e2e_lib.bash" "$@"

eval "$(bash "$SRC/scripts/slurm-local.sh" env)"
export SLURM_CONF
if ! bash "$SRC/scripts/slurm-local.sh" status > "$work/cluster.txt" 2>&1; then
  cat "$work/cluster.txt"
  echo "SKIP: the local Slurm cluster is not running"
  exit 77
fi

# squeue's view: -t all also lists jobs that ended (for MinJobAge after they did).
jobs_named() {
  local prefix="$1" states="$2"
  squeue -h -t "$states" -o "%i %j %T %r" | awk -v p="$prefix-" 'index($2, p) == 1'
}

job_prefix() {
  sed -n 's/.*Slurm jobs are named \(smallfix-[0-9a-f]*\)-\*.*/\1/p' "$1" | head -n1
}

make_ckpt_repo() {
  local repo="$1"
  mkdir -p "$repo/ckpt" "$repo/tests"
  echo "from ckpt.save import save_checkpoint" > "$repo/ckpt/__init__.py"
  cat > "$repo/ckpt/save.py" <<'PY'
import json


def save_checkpoint(path, model, optimizer=None, step=0):
    state = {"step": step, "model": model.state_dict()}
    state["optimizer"] = optimizer.state_dict()
    with open(path, "w") as out:
        json.dump(state, out)
    return path
PY
  cat > "$repo/tests/model.py" <<'PY'
class Model:
    def state_dict(self):
        return {"w": [1, 2]}
PY
  cat > "$repo/tests/test_save.py" <<'PY'
import json
import os
import time

from ckpt import save_checkpoint
from model import Model


def test_save_without_optimizer(tmp_path):
    path = str(tmp_path / "ckpt.json")
    save_checkpoint(path, Model())
    # Like a resuming rank: wait for the checkpoint to appear. One never written hangs here.
    while not os.path.exists(path):
        time.sleep(0.5)
    assert json.load(open(path))["model"] == {"w": [1, 2]}
PY
  cat > "$repo/tests/test_resume.py" <<'PY'
import json
import os
import time

from ckpt import save_checkpoint
from model import Model


def test_resume_without_optimizer(tmp_path):
    path = str(tmp_path / "ckpt.json")
    save_checkpoint(path, Model())
    # A written checkpoint is resumed: wait until its optimizer entry is there. One written
    # without it hangs here.
    if os.path.exists(path):
        while "optimizer" not in json.load(open(path)):
            time.sleep(0.5)
PY
  git -C "$repo" init -q -b main
  git -C "$repo" add -A
  git -C "$repo" -c user.name=e2e -c user.email=e2e@example.com commit -qm buggy
}
