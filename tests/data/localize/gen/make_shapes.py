"""Regenerates tests/data/localize/shapes/* and shapes.yaml: failures in the shapes users paste.

    /usr/bin/python3 tests/data/localize/gen/make_shapes.py

Every traceback, warning and launcher report here comes from really running repo/ (or a small
script that calls it) with /usr/bin/python3: single processes, fastzero's launcher, torchrun,
torch.multiprocessing.spawn inside pytest, concurrent.futures, `setup.py` and `pip install`.
The output is then cut, wrapped, prefixed, boxed or quoted the way the public reports listed in
studied_reports.tsv show it (each case names the report whose shape it follows; no report's text
is copied). Hand-written text is limited to what needs a GPU or a cluster (NCCL watchdog lines,
Ray's task-error header), always around the frames of a real run.
"""
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

from common import (GEN, PY, REPO, ROOT, find_line, fix_torchrun_bin, interleave, launcher,
                    pytest, redate, relocate, run, split_ranks, strip_carets, torchrun)

SHAPES = ROOT / "shapes"
TMP = tempfile.mkdtemp(prefix="fz-shapes-")
CHECKOUT = "/home/alice/src/fastzero"
CONDA = "/opt/conda/envs/fz/lib/python3.10/site-packages"

# ------------------------------------------------------------------ real runs (cached)

_cache = {}


def script(name, body, sim=None, args=(), env=None, timeout=120):
    """Runs a user script that calls the repo; returns its output with the script at ~/name."""
    key = (name, body, sim, args, json.dumps(env, sort_keys=True))
    if key not in _cache:
        p = Path(TMP) / name
        p.write_text(textwrap.dedent(body))
        out = run([PY, *args, str(p)], sim=sim, env=env, timeout=timeout)
        _cache[key] = out.replace(str(p), f"/home/alice/work/{name}")
    return _cache[key]


def cached(key, fn):
    if key not in _cache:
        _cache[key] = fn()
    return _cache[key]


CFG_KEY = """\
from fastzero.utils.config import FastZeroConfig


def main():
    cfg = FastZeroConfig({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 8,
                          "gradient_accumulation_steps": 1})
    print(cfg.train_batch_size)


main()
"""
ZERO_DIV = """\
from fastzero.utils.config import FastZeroConfig


def build(world_size):
    return FastZeroConfig({"train_batch_size": 16, "zero_optimization": {"stage": 1}},
                          world_size=world_size)


build(2)
"""
PG = """\
from fastzero.comm import wrappers as comm

print("rank", comm.get_rank())
"""
LR = "from fastzero.runtime import lr_schedules\n"
SIX = "import fastzero.utils.compat\n"
WRONG = """\
from fastzero.utils.groups import CSVConfig, describe_layout


def main():
    cfg = CSVConfig([("tp", "2"), ("pp", "1")])
    describe_layout(cfg, 4)


main()
"""
WARN = """\
from fastzero.utils.warmup import schedule_plan

print(schedule_plan(1000))
"""
WARN_MIXED = """\
import torch
from fastzero.utils.warmup import schedule_plan

print("step 0 loss 2.31")
plan = schedule_plan(1000)
scaler = torch.cuda.amp.GradScaler()
print("step 1 loss 2.29")
"""
SOFTMAX_TEST = """\
import torch
from fastzero.utils.warmup import normalized_scores


def test_scores_sum_to_one():
    assert abs(float(normalized_scores(torch.ones(2, 3)).sum()) - 2.0) < 1e-6
"""
SPAWN_TEST = """\
import torch.multiprocessing as mp
from fastzero.utils.config import FastZeroConfig


def _worker(rank, world_size):
    FastZeroConfig({"train_batch_size": 16, "zero_optimization": {"stage": 1}},
                   world_size=world_size)


def test_config_in_two_processes():
    mp.spawn(_worker, args=(2,), nprocs=2)
"""
RECORD = """\
from torch.distributed.elastic.multiprocessing.errors import record
from fastzero.utils.config import FastZeroConfig


@record
def main():
    FastZeroConfig({"train_batch_size": 16, "zero_optimization": {"stage": 1}}, world_size=2)


if __name__ == "__main__":
    main()
"""
POOL = """\
from concurrent.futures import ProcessPoolExecutor
from fastzero.utils.config import FastZeroConfig


def make(world_size):
    return FastZeroConfig({"train_batch_size": 16, "zero_optimization": {"stage": 1}},
                          world_size=world_size).train_batch_size


if __name__ == "__main__":
    with ProcessPoolExecutor(2) as pool:
        print(list(pool.map(make, [2, 4])))
"""


def cfg_key():
    return script("train_cfg.py", CFG_KEY)


def zero_div():
    return script("build_cfg.py", ZERO_DIV)


def pg():
    return script("export_rank.py", PG)


def lr():
    return script("sched.py", LR)


def six():
    return script("check_compat.py", SIX, sim="sim_torch20")


def wrong():
    return script("layout.py", WRONG)


def kwarg():
    return cached("kwarg", lambda: run([PY, "examples/train.py", "--precision", "fp16",
                                        "--zero-stage", "0"]))


def none_grad_ranks():
    return cached("none_grad", lambda: launcher(2, "rank", "examples/train.py",
                                                "--freeze-embeddings"))


def gloo_timeout():
    def make():
        save = Path(TMP) / "ck"
        out = launcher(2, "rank", "examples/train.py", "--zero-stage", "0", "--save-dir",
                       str(save), "--client-state", timeout=150)
        return out.replace(str(save), "/scratch/ckpt")
    return cached("gloo", make)


def spawn_pipe():
    return cached("spawn", lambda: run([PY, "examples/pipe_train.py", "--stages", "2", "--port",
                                        "{port}"]))


def pytest_file(name, body, *args):
    def make():
        p = Path(TMP) / name
        p.write_text(body)
        out = run([PY, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", TMP, *args, str(p)])
        return out.replace(TMP + "/", "").replace(TMP, ".")
    return cached(name + " ".join(args), make)


def torchrun_record():
    def make():
        p = Path(TMP) / "pretrain.py"
        p.write_text(RECORD)
        out = run([PY, str(GEN / "bin" / "torchrun"), "--nproc_per_node", "2", "--master_port",
                   "{port}", str(p)], timeout=180)
        return fix_torchrun_bin(out.replace(str(p), "/home/alice/work/pretrain.py"))
    return cached("record", make)


def build_copy():
    """A copy of the repo to build (setup.py writes egg-info next to itself)."""
    def make():
        dst = Path(TMP) / "fastzero-src"
        shutil.copytree(REPO, dst, ignore=shutil.ignore_patterns("__pycache__", "tests"))
        return str(dst)
    return cached("copy", make)


def setup_py(cuda_home=None):
    def make():
        src = build_copy()
        env = {"FASTZERO_BUILD_OPS": "1", "PYTHONPATH": src}
        e = dict(os.environ, **env)
        e.pop("CUDA_HOME", None)
        if cuda_home:
            e["CUDA_HOME"] = cuda_home
        import subprocess
        p = subprocess.run([PY, "setup.py", "egg_info", "--egg-base", TMP], cwd=src, env=e,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        return p.stdout.replace(src, CHECKOUT)
    return cached(("setup", cuda_home), make)


def pip_install(cuda_home=None, editable=False):
    def make():
        src = build_copy()
        e = dict(os.environ, FASTZERO_BUILD_OPS="1", PYTHONPATH=src, PIP_NO_INPUT="1",
                 PIP_DISABLE_PIP_VERSION_CHECK="1")
        e.pop("CUDA_HOME", None)
        if cuda_home:
            e["CUDA_HOME"] = cuda_home
        import subprocess
        args = [PY, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                "--dry-run", "--target", str(Path(TMP) / "target")]
        args += ["-e", src] if editable else [src]
        p = subprocess.run(args, cwd=TMP, env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        out = p.stdout.replace(src, CHECKOUT)
        return re.sub(r"/tmp/pip-[a-z-]+-[a-z0-9_]+", lambda m: "/tmp/pip-build-xyz", out)
    return cached(("pip", cuda_home, editable), make)


# ------------------------------------------------------------------ dressing

def lines(text):
    return text.rstrip("\n").split("\n")


def at(text, prefix=CHECKOUT):
    return relocate(text, prefix)


def drop_header(text):
    return "\n".join(l for l in lines(text) if not l.startswith("Traceback (most recent"))


def last_frames(text, n, dots=True):
    """Keeps the last n frames of the last traceback and its exception line."""
    ls = lines(text)
    start = max(i for i, l in enumerate(ls) if l.startswith("Traceback (most recent"))
    body = ls[start + 1:]
    frames = [i for i, l in enumerate(body) if re.match(r'\s*File "', l)]
    keep = body[frames[-n]:] if len(frames) >= n else body
    return ("...\n" if dots else "") + "\n".join(keep)


def cut_tail(text, after_needle):
    """Cuts the log right after the first line containing after_needle (the rest was not pasted)."""
    ls = lines(text)
    for i, l in enumerate(ls):
        if after_needle in l:
            return "\n".join(ls[:i + 1])
    raise SystemExit(f"needle not found: {after_needle}")


def exception_line(text):
    for l in reversed(lines(text)):
        if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Warning)\b", l):
            return l
    raise SystemExit("no exception line")


def wrap(text, width):
    """Hard-wraps every line at `width` columns, as a terminal copy or a CI log viewer does."""
    out = []
    for l in lines(text):
        while len(l) > width:
            out.append(l[:width])
            l = l[width:]
        out.append(l)
    return "\n".join(out)


def prefix_ranks(text, fmt):
    """Re-labels fastzero's '[rankN]:' prefixes in another launcher's style."""
    return re.sub(r"^\[rank(\d+)\]:", lambda m: fmt.format(r=int(m.group(1))), text, flags=re.M)


def frames_of(text):
    """(path, line, function, source) of the last traceback in text."""
    ls = lines(text)
    start = max(i for i, l in enumerate(ls) if "Traceback (most recent" in l)
    frames = []
    for i in range(start + 1, len(ls)):
        m = re.match(r'\s*File "([^"]+)", line (\d+), in (.+)', ls[i])
        if m:
            src = ls[i + 1].strip() if i + 1 < len(ls) else ""
            frames.append((m.group(1), int(m.group(2)), m.group(3), src))
    return frames


def source_line(path, line):
    p = Path(path.replace(CHECKOUT, str(REPO)))
    try:
        return p.read_text().split("\n")[line - 1]
    except (OSError, IndexError):
        return ""


def rich_box(text, width=100, stderr=False):
    """Renders the last traceback the way rich's traceback handler boxes it."""
    inner = width - 4
    out = ["╭" + " Traceback (most recent call last) ".center(width - 2, "─") + "╮"]

    def row(s):
        while len(s) > inner:
            out.append("│ " + s[:inner] + " │")
            s = s[inner:]
        out.append("│ " + s.ljust(inner) + " │")
    for i, (path, line, func, _) in enumerate(frames_of(text)):
        if i:
            row("")
        row(f"{path}:{line} in {func}")
        row("")
        for n in range(max(1, line - 2), line + 2):
            src = source_line(path, n).rstrip()
            marker = "❱" if n == line else " "
            row(f"{marker} {n:>3} │ {src.replace('    ', '│   ')}"[:inner])
    out.append("╰" + "─" * (width - 2) + "╯")
    out.append(exception_line(text))
    if stderr:
        out = ["stderr: " + l for l in out]
    return "\n".join(out)


def loguru(text):
    """Renders the last traceback in loguru's diagnose style (innermost frame marked '>')."""
    frames = frames_of(text)
    out = ["Traceback (most recent call last):", ""]
    for i, (path, line, func, src) in enumerate(frames):
        mark = "> " if i == len(frames) - 1 else "  "
        out.append(f'{mark}File "{path}", line {line}, in {func}')
        out.append(f"    {src}")
        out.append("    └ <object at 0x7f3a2c1d9e50>")
        out.append("")
    out.append(exception_line(text))
    return "\n".join(out)


def ipython(text, style="8", cell_line=5):
    """Renders the last traceback as IPython/Jupyter prints it."""
    exc = exception_line(text)
    etype = exc.split(":")[0].split(".")[-1]
    out = ["-" * 75, f"{etype:<42}Traceback (most recent call last)"]
    frames = [f for f in frames_of(text) if not f[0].startswith("/home/alice/work/")]
    if style == "8":
        out += [f"Cell In[3], line {cell_line}", f"      3 cfg = load()",
                f"----> {cell_line} run(cfg)", ""]
    else:
        out += ["<ipython-input-3-1f2e3d4c5b6a> in <module>", f"----> {cell_line} run(cfg)", ""]
    for path, line, func, _ in frames:
        if style == "8":
            out.append(f"File {path}:{line}, in {func}(*args)")
        elif style == "colab":
            out.append(f"[{path}](https://localhost:8080/#) in {func}(self, *args)")
        else:
            out.append(f"{path} in {func}(self, *args)")
        for n in range(max(1, line - 2), line + 2):
            src = source_line(path, n).rstrip()
            lead = "---> " if n == line else "     "
            out.append(f"{lead}{n:<4}{src}")
        out.append("")
    out.append(exc)
    return "\n".join(out)


def pip_box(text, command="python setup.py egg_info"):
    """Wraps a build's output in pip's subprocess error box (used where pip's own run differs)."""
    body = ["      " + l for l in lines(text)]
    return "\n".join(["Processing /home/alice/src/fastzero",
                      "  Preparing metadata (setup.py) ... error",
                      "  error: subprocess-exited-with-error",
                      "  ",
                      f"  × {command} did not run successfully.",
                      "  │ exit code: 1",
                      f"  ╰─> [{len(body)} lines of output]"] + body +
                     ["      [end of output]", "  ",
                      "  note: This error originates from a subprocess, and is likely not a problem with pip.",
                      "error: metadata-generation-failed"])


def issue(title, prose, log, fence="```"):
    return f"### {title}\n\n{prose}\n\n{fence}\n{log}\n{fence}\n\n### Environment\n\n- fastzero 0.4.2\n- torch 2.1\n"


NCCL_WATCHDOG = (
    "[E{md} 10:{mm}:41.{us} {pid} ProcessGroupNCCL.cpp:475] [Rank {r}] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=212, OpType=BARRIER, NumelIn=1, NumelOut=1, "
    "Timeout(ms)=1800000) ran for 1800294 milliseconds before timing out.")


def watchdog_block(rank, pid):
    return "\n".join([
        NCCL_WATCHDOG.format(md="0503", mm=40 + rank, us=712000 + rank, pid=pid, r=rank),
        f"[E0503 10:4{rank}:41.9 {pid} ProcessGroupNCCL.cpp:489] Some NCCL operations have failed "
        "or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations "
        "might run on corrupted/incomplete data.",
        "terminate called after throwing an instance of 'std::runtime_error'",
        f"  what():  [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=212, "
        "OpType=BARRIER, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800294 milliseconds "
        "before timing out.",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 "
        "(most recent call first):",
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f15b276c1b6 in "
        "/opt/conda/lib/python3.10/site-packages/torch/lib/libc10.so)",
        "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout() + 0x1d2 (0x7f15606796fc in "
        "/opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)",
        "frame #2: <unknown function> + 0xd6df4 (0x7f3bca9d5df4 in /lib/x86_64-linux-gnu/libstdc++.so.6)",
    ])


# ------------------------------------------------------------------ cases

CASE_SPECS = []


def case(name, shape, follows, file, func, needle, also=None, note=""):
    def deco(fn):
        CASE_SPECS.append(dict(name=name, shape=shape, follows=follows, file=file, func=func,
                               needle=needle, also=also, note=note, make=fn))
        return fn
    return deco


CFG = ("fastzero/utils/config.py", "from_dict", 'stage = cfg["zero_optimization"]["stage"]')
ZDIV = ("fastzero/utils/config.py", "get_grad_accum_steps",
        "return self.train_batch_size // (self.micro_batch_per_gpu * dp_world)")
PGS = ("fastzero/comm/wrappers.py", "get_rank", "return dist.get_rank(group=group)")
LRS = ("fastzero/runtime/lr_schedules.py", "<module>", "from torch.optim.lr_scheduler import LRScheduler")
SIXS = ("fastzero/utils/compat.py", "<module>", "from torch._six import inf")
KW = ("fastzero/runtime/engine.py", "step", "self.optimizer.step(closure=None, grad_scale=self._grad_scale())")
GRAD = ("fastzero/runtime/zero/partition.py", "reduce_gradients", "p.grad.data.div_(self.world_size)")
BARRIER = ("fastzero/checkpoint/saver.py", "save_checkpoint", "dist.barrier()")
PIPE = ("fastzero/runtime/pipe/schedule.py", "run", "for cmd in self.schedule.steps():")
GATHER = ("fastzero/comm/wrappers.py", "all_gather_flat",
          "return dist.all_gather_into_tensor(output, tensor, group=group)")
NAME = ("fastzero/utils/config.py", "get_dtype", "raise ValueError(")
WRONGS = ("fastzero/utils/groups.py", "group_sizes", "tp = parallel.tensor_parallel")
WRONG_CALLER = ("fastzero/utils/groups.py", "describe_layout", "tp, pp, dp = group_sizes(cfg, world_size)")
WARNS = ("fastzero/utils/warmup.py", "schedule_plan", "warmup = warmup_steps(total_steps, warmup_fraction=0.1)")
SOFTMAX = ("fastzero/utils/warmup.py", "normalized_scores", "return F.softmax(scores)")
CUDA_HOME = ("fastzero/ops/builder.py", "cuda_home", 'return os.environ["CUDA_HOME"]')
ARCH = ("fastzero/ops/builder.py", "arch_flags", 'major = int(torch.version.cuda.split(".")[0])')

U = "https://github.com/"

# --- cut-head: header cut off, starts with '...', only the last frames

@case("head_cut_keyerror.log", "cut-head", U + "NVIDIA-NeMo/Speech/issues/6457", *CFG,
      note="traceback pasted from its first frame: no 'Traceback (most recent call last):' line")
def _():
    return drop_header(at(cfg_key()))


@case("head_dots_zero_division.log", "cut-head", U + "huggingface/accelerate/issues/593", *ZDIV,
      note="starts with '...' and keeps only the last two frames")
def _():
    return last_frames(at(zero_div()), 2)


@case("head_last3_unexpected_kwarg.md", "cut-head", U + "NVIDIA-NeMo/Speech/issues/14609", *KW,
      note="issue body; only the last three frames (torch's optimizer wrapper innermost) and the error")
def _():
    return issue("Describe the bug", "fp16 training stops at the first step. The end of the error:",
                 last_frames(at(kwarg()), 3, dots=False))


@case("head_cut_pg_conda.log", "cut-head", U + "NVIDIA-NeMo/Speech/issues/6457", *PGS,
      note="no header, installed copy in conda site-packages, torch frames innermost")
def _():
    return drop_header(strip_carets(relocate(pg(), CONDA + "/fastzero")))


@case("head_midframe_importerror.log", "cut-head", U + "huggingface/accelerate/issues/593", *LRS,
      note="selection started in the middle of a frame: a source line comes first")
def _():
    text = drop_header(at(lr()))
    return "\n".join(lines(text)[1:])


# --- cut-tail: no exception line at the end

@case("tail_cut_keyerror.log", "cut-tail", U + "huggingface/transformers/issues/17114", *CFG,
      note="the paste stops after the innermost frame's source line; no exception line")
def _():
    return cut_tail(at(cfg_key()), 'stage = cfg["zero_optimization"]["stage"]')


@case("tail_cut_zero_division_carets.log", "cut-tail", U + "huggingface/transformers/issues/17114", *ZDIV,
      note="cut after the 3.11 caret line of the innermost frame")
def _():
    text = at(zero_div())
    ls = lines(text)
    i = max(k for k, l in enumerate(ls) if "micro_batch_per_gpu * dp_world" in l)
    return "\n".join(ls[:i + 2])


@case("tail_cut_kwarg_torch_frames.log", "cut-tail", U + "huggingface/transformers/issues/24445", *KW,
      note="cut inside torch's frames below the repo's calling line")
def _():
    return cut_tail(at(kwarg()), "grad_mode.py")


@case("tail_cut_rank_prefixed.log", "cut-tail", U + "NVIDIA-NeMo/Speech/issues/10285", *GRAD,
      note="one rank's [rank1]: prefixed traceback, cut before its exception line")
def _():
    per, _ = split_ranks(at(none_grad_ranks()), r"^\[rank(\d)\]:")
    ls = per[1]
    i = max(k for k, l in enumerate(ls) if "p.grad.data.div_" in l)
    return "\n".join(ls[:i + 1])


@case("tail_cut_spawn.log", "cut-tail", U + "Lightning-AI/pytorch-lightning/issues/13935", *PIPE,
      note="spawned child's traceback cut before the error; parent output missing")
def _():
    text = at(spawn_pipe())
    return cut_tail(text, "for cmd in self.schedule.steps():")


# --- error-only: the error line alone, the site must come from the repo itself

@case("only_importerror_name.md", "error-only", U + "huggingface/transformers/issues/3179", *LRS,
      note="only the ImportError line quoted in prose; the site is the import statement")
def _():
    return issue("ImportError after upgrading torch",
                 "Importing the schedules fails right away, I only have this line:",
                 exception_line(at(lr())).replace(str(REPO), CHECKOUT))


@case("only_module_not_found.log", "error-only", U + "huggingface/peft/issues/1119", *SIXS,
      note="a bare ModuleNotFoundError line")
def _():
    return exception_line(six())


@case("only_module_attribute.md", "error-only", U + "huggingface/accelerate/issues/1704", *GATHER,
      note="issue title line and a backticked AttributeError on torch.distributed; site is the use of the name")
def _():
    out = run([PY, "-c", "import torch.distributed as dist; dist.all_gather_into_tensor"],
              sim="sim_torch112")
    return ("AttributeError on torch 1.12\n\nWhen the optimizer gathers partitions I get `"
            + exception_line(out) + "` and training stops.")


@case("only_unexpected_kwarg.log", "error-only", U + "huggingface/peft/issues/1661", *KW,
      note="the TypeError line only; the site is the call that passes the keyword")
def _():
    return exception_line(kwarg())


@case("only_keyerror.md", "error-only", U + "huggingface/transformers/issues/39081", *CFG,
      note="KeyError line as the issue title; site is the subscript with that key")
def _():
    return "# " + exception_line(cfg_key()) + "\n\nRunning with my own config json, no zero section.\n"


@case("only_nameerror.log", "error-only", U + "Lightning-AI/pytorch-lightning/issues/8653", *NAME,
      note="NameError line with a bit of log before it; the site is the use of the name")
def _():
    out = script("dtype.py", "from fastzero.utils.config import get_dtype\nget_dtype('bfloat16')\n")
    return "[2024-05-02 11:02:11,201] [INFO] loading config\n" + exception_line(out)


# --- warning: a warning is the failure

@case("warn_future_plain.log", "warning", U + "huggingface/trl/issues/6584", *WARNS,
      note="path:LINE: FutureWarning then the source line (stacklevel=2 names the caller)")
def _():
    return at(script("plan.py", WARN, args=("-W", "always")))


@case("warn_future_ray_prefix.log", "warning", U + "vllm-project/vllm/issues/5785", *WARNS,
      note="the same warning behind Ray's '(pid=N)' prefix, in an installed copy")
def _():
    out = relocate(script("plan.py", WARN, args=("-W", "always")), CONDA + "/fastzero")
    return "\n".join(f"(pid=53316) {l}" for l in lines(out))


@case("warn_future_as_error.log", "warning", U + "huggingface/peft/pull/2817", *WARNS,
      note="-W error::FutureWarning: the warning raised as an exception inside warnings.warn's caller")
def _():
    return at(script("plan.py", WARN, args=("-W", "error::FutureWarning")))


@case("warn_pytest_summary_softmax.log", "warning", U + "huggingface/trl/issues/5014", *SOFTMAX,
      note="pytest warnings summary; UserWarning about an implicit softmax dim raised at the repo's call")
def _():
    return at(pytest_file("test_scores.py", SOFTMAX_TEST, "-W", "always::UserWarning"))


@case("warn_mixed_with_torch_warning.log", "warning", U + "Lightning-AI/pytorch-lightning/issues/151", *WARNS,
      note="training log with the repo's FutureWarning and a later torch UserWarning from site-packages")
def _():
    return at(script("train_mixed.py", WARN_MIXED, args=("-W", "always")))


# --- nccl-watchdog: watchdog / timeout RuntimeError text with rank prefixes

def gloo_text():
    return redate(at(gloo_timeout()), "2024-05-03", 10)


@case("nccl_watchdog_rank_prefix.log", "nccl-watchdog", U + "Lightning-AI/pytorch-lightning/issues/20832", *BARRIER,
      note="real gloo timeout tracebacks with [rankN]: prefixes, then NCCL watchdog lines (written) per rank")
def _():
    wd = "\n".join(f"[rank{r}]:" + l for r in (1, 0) for l in lines(watchdog_block(r, 4100 + r)))
    return gloo_text() + "\n" + wd


@case("nccl_watchdog_wrapped.log", "nccl-watchdog", U + "Lightning-AI/pytorch-lightning/issues/20832", *BARRIER,
      note="the same log hard-wrapped at 120 columns, watchdog text first")
def _():
    return wrap(watchdog_block(1, 4101) + "\n" + gloo_text(), 120)


@case("nccl_watchdog_srun.log", "nccl-watchdog", U + "pytorch/torchtitan/pull/216", *BARRIER,
      note="srun -l 'N: ' prefixes, watchdog lines after the Python tracebacks")
def _():
    text = prefix_ranks(gloo_text(), "{r}: ")
    return text + "\n" + "\n".join(f"0: {l}" for l in lines(watchdog_block(0, 4100)))


@case("nccl_watchdog_one_rank_issue.md", "nccl-watchdog", U + "Lightning-AI/pytorch-lightning/issues/20832", *BARRIER,
      note="issue: only rank 0's traceback and the watchdog of rank 1")
def _():
    per, _ = split_ranks(gloo_text(), r"^\[rank(\d)\]:")
    log = "\n".join(per[0]) + "\n" + "\n".join(f"[rank1]:{l}" for l in lines(watchdog_block(1, 4101)))
    return issue("Hang when saving a checkpoint", "Training hangs at save and then times out:", log)


@case("nccl_watchdog_doubled_prefix.log", "nccl-watchdog", U + "pytorch/torchtitan/pull/3360", *BARRIER,
      note="doubled '[rankN]:[rankN]:' prefixes padded with trailing spaces")
def _():
    text = prefix_ranks(gloo_text(), "[rank{r}]:[rank{r}]:")
    return "\n".join(l + " " * 30 for l in lines(text))


# --- rich-box: rich / loguru boxed tracebacks

@case("rich_box_keyerror.log", "rich-box", U + "huggingface/accelerate/pull/613", *CFG,
      note="rich traceback panel, frames as 'path:LINE in func'")
def _():
    return rich_box(at(cfg_key()))


@case("rich_box_stderr_prefix.log", "rich-box", U + "huggingface/accelerate/issues/1573", *ZDIV,
      note="rich panel behind 'stderr: ' with long conda paths wrapped inside the box")
def _():
    return rich_box(strip_carets(relocate(zero_div(), "/home/xxx/apps/miniconda310/envs/ml/lib/python3.10/site-packages/fastzero")), width=80, stderr=True)


@case("rich_box_narrow_kwarg.log", "rich-box", U + "Lightning-AI/pytorch-lightning/issues/17508", *KW,
      note="narrow (70 column) panel: most paths wrapped across two box rows")
def _():
    return rich_box(at(kwarg()), width=70)


@case("rich_box_pg_issue.md", "rich-box", U + "NVIDIA-NeMo/Run/pull/152", *PGS,
      note="rich panel pasted in an issue; torch frames innermost")
def _():
    return issue("get_rank fails", "Exporting a checkpoint on one machine:", rich_box(at(pg())))


@case("loguru_diagnose_keyerror.log", "rich-box", U + "facebookresearch/fairscale/issues/1134", *CFG,
      note="loguru's diagnose style: '> File' marks the innermost frame, '└' annotations")
def _():
    return loguru(at(cfg_key()))


# --- ipython: Jupyter / IPython / Colab tracebacks

@case("ipython8_keyerror.md", "ipython", U + "Lightning-AI/pytorch-lightning/issues/4612", *CFG,
      note="IPython 8: 'Cell In[3], line 5', 'File /p/x.py:41, in f(*args)' and '--->' markers")
def _():
    return issue("KeyError in notebook", "From a notebook cell:", ipython(at(cfg_key())))


@case("ipython_old_zero_division.log", "ipython", U + "Lightning-AI/pytorch-lightning/issues/4612", *ZDIV,
      note="older IPython: 'path in func(args)' headers, line numbers only in '---->' markers")
def _():
    return ipython(at(zero_div()), style="old")


@case("colab_links_kwarg.md", "ipython", U + "huggingface/trl/issues/518", *KW,
      note="Colab: frames as markdown links '[path](https://localhost:8080/#) in f(...)'")
def _():
    return issue("fp16 step fails in Colab", "Running the example:",
                 ipython(relocate(kwarg(), "/usr/local/lib/python3.10/dist-packages/fastzero"), style="colab"))


@case("ipython8_pg_conda.log", "ipython", U + "huggingface/peft/issues/1209", *PGS,
      note="IPython 8 with conda site-packages paths, torch frames innermost")
def _():
    return ipython(relocate(pg(), CONDA + "/fastzero"))


@case("ipython8_import.log", "ipython", U + "huggingface/transformers/issues/3179", *LRS,
      note="IPython 8 ImportError at import time")
def _():
    return ipython(at(lr()), cell_line=1)


# --- carets-wrap: 3.11 caret markers and hard-wrapped long lines

@case("carets_wrapped_80.log", "carets-wrap", U + "Lightning-AI/pytorch-lightning/issues/20832", *KW,
      note="Python 3.11 output with ^^^^ lines, hard-wrapped at 80 columns")
def _():
    return wrap(relocate(kwarg(), "/home/alice/.cache/pypoetry/virtualenvs/fz-tBwAFCAJ-py3.11/lib/python3.11/site-packages/fastzero"), 80)


@case("carets_wrapped_100_cfg.log", "carets-wrap", U + "Lightning-AI/pytorch-lightning/issues/20832", *CFG,
      note="long checkout path, wrapped at 100 columns")
def _():
    return wrap(relocate(cfg_key(), "/lustre/fsw/portfolios/llm/users/alice/projects/pretraining/fastzero"), 100)


@case("carets_only_pg.log", "carets-wrap", U + "huggingface/trl/issues/4535", *PGS,
      note="3.11 carets under every frame, torch frames innermost")
def _():
    return at(pg())


@case("carets_wrapped_64_zero_division.md", "carets-wrap", U + "NVIDIA-NeMo/Speech/issues/14609", *ZDIV,
      note="issue pasted from a 64 column terminal")
def _():
    return issue("ZeroDivisionError", "Config without micro batch:", wrap(at(zero_div()), 64))


@case("carets_wrapped_rank_prefixed.log", "carets-wrap", U + "huggingface/transformers/issues/17114", *GRAD,
      note="[rankN]: prefixed lines wrapped at 90 columns (continuations carry no prefix)")
def _():
    return wrap(at(none_grad_ranks()), 90)


# --- multirank: interleaved multi-rank prefixes

def ranks_text():
    return redate(at(none_grad_ranks()), "2024-05-01", 10)


def interleaved(fmt, seed, chunk=(1, 3)):
    per, other = split_ranks(ranks_text(), r"^\[rank(\d)\]:")
    streams = [[fmt.format(r=r) + l[len(f"[rank{r}]:"):] for l in per[r]] for r in sorted(per)]
    return "\n".join(interleave(streams, seed=seed, chunk=chunk) + other)


@case("ranks_default_line_by_line.log", "multirank", U + "huggingface/transformers/issues/24445", *GRAD,
      note="torchrun [defaultN]: prefixes, ranks mixed line by line")
def _():
    return interleaved("[default{r}]:", seed=3, chunk=(1, 1))


@case("ranks_mpi_tag_output.log", "multirank", U + "huggingface/transformers/issues/30323", *GRAD,
      note="mpirun --tag-output '[1,N]<stderr>:' prefixes")
def _():
    return interleaved("[1,{r}]<stderr>:", seed=5)


@case("ranks_ray_worker_prefix.log", "multirank", U + "vllm-project/vllm/issues/1091", *GRAD,
      note="'(RayWorkerWrapper pid=N)' prefixes per worker")
def _():
    return interleaved("(RayWorkerWrapper pid={r}4417) ", seed=7)


@case("ranks_vllm_worker_logger.log", "multirank", U + "vllm-project/vllm/issues/15469", *GRAD,
      note="'(VllmWorker rank=N pid=M) ERROR 03-25 21:13:53 [multiproc_executor.py:374] ' before every line")
def _():
    return interleaved("(VllmWorker rank={r} pid=1223{r}) ERROR 03-25 21:13:53 [multiproc_executor.py:374] ", seed=9)


@case("ranks_srun_interleaved.log", "multirank", U + "NVIDIA-NeMo/Speech/issues/10285", *GRAD,
      note="srun -l 'N: ' prefixes, chunks of up to 4 lines per rank")
def _():
    return interleaved("{r}: ", seed=11, chunk=(1, 4))


# --- nested: a traceback inside another

@case("nested_pytest_spawn.log", "nested", U + "Lightning-AI/pytorch-lightning/issues/151", *ZDIV,
      note="pytest E lines holding torch.multiprocessing.spawn's ProcessRaisedException and the child traceback")
def _():
    return at(pytest_file("test_spawn_cfg.py", SPAWN_TEST))


@case("nested_elastic_root_cause.log", "nested", U + "huggingface/accelerate/issues/3664", *ZDIV,
      note="torchrun ChildFailedError report; the child's traceback only in the Root Cause section (@record)")
def _():
    text = at(torchrun_record())
    ls = lines(text)
    start = max(i for i, l in enumerate(ls) if "Traceback (most recent call last)" in l
                and not l.lstrip().startswith("traceback"))
    first = min(i for i, l in enumerate(ls) if l.startswith("Traceback (most recent"))
    launcher_tb = ls[start:] if "torchrun" in "\n".join(ls[start:start + 3]) else ls[first:]
    return "\n".join(l for l in launcher_tb)


@case("nested_concurrent_futures.log", "nested", U + "pytorch/torchtitan/issues/1570", *ZDIV,
      note="concurrent.futures _RemoteTraceback block, then the re-raise in the parent")
def _():
    return at(script("pool.py", POOL))


@case("nested_ray_task_error.log", "nested", U + "vllm-project/vllm/issues/16259", *ZDIV,
      note="Ray-style RayTaskError header (written) around the real remote frames, vLLM logger prefix")
def _():
    frames = lines(last_frames(at(zero_div()), 3, dots=False))
    driver = ["Traceback (most recent call last):",
              '  File "/home/alice/work/serve.py", line 21, in <module>',
              "    ray.get(workers[0].setup.remote())",
              '  File "/usr/local/lib/python3.10/dist-packages/ray/_private/worker.py", line 2771, in get',
              "    values, debugger_breakpoint = worker.get_objects(object_refs, timeout=timeout)",
              "ray.exceptions.RayTaskError(ZeroDivisionError): ray::Worker.setup() (pid=687, ip=172.18.0.3)"]
    body = driver + frames
    return "\n".join(f"ERROR 04-08 04:00:01 [core.py:390] {l}" for l in body)


@case("nested_spawn_quoted_issue.md", "nested", U + "huggingface/transformers/issues/18189", *PIPE,
      note="spawn's '-- Process N terminated' traceback quoted with '> ' in an issue reply")
def _():
    text = at(spawn_pipe())
    return "Same here:\n\n" + "\n".join("> " + l for l in lines(text)) + "\n\nAny idea?\n"


# --- installed-copy: site-packages, conda, editable, cluster paths

@case("installed_conda_site.log", "installed-copy", U + "huggingface/transformers/issues/16688", *CFG,
      note="installed in a conda env's site-packages; user script outside the repo")
def _():
    return strip_carets(relocate(cfg_key(), CONDA + "/fastzero"))


@case("installed_egg_path.log", "installed-copy", U + "Lightning-AI/pytorch-lightning/issues/18277", *ZDIV,
      note="old egg install: site-packages/fastzero-0.4.2-py3.10.egg/fastzero/...")
def _():
    return strip_carets(relocate(zero_div(), "/usr/local/lib/python3.10/site-packages/fastzero-0.4.2-py3.10.egg/fastzero"))


@case("installed_lustre_editable.log", "installed-copy", U + "huggingface/trl/issues/4535", *PGS,
      note="editable install on a cluster file system (/lus/...), torch in a venv")
def _():
    out = relocate(pg(), "/lus/grand/projects/llm/alice/fastzero")
    return out.replace("/usr/lib/python3/dist-packages", "/lus/grand/projects/llm/alice/venv/lib/python3.11/site-packages")


@case("installed_windows_paths.log", "installed-copy", U + "huggingface/transformers/issues/3179", *KW,
      note="Windows paths with backslashes in a user's venv")
def _():
    out = relocate(kwarg(), "C:/Users/alice/venv/Lib/site-packages/fastzero")
    out = out.replace("/usr/lib/python3/dist-packages", "C:/Users/alice/venv/Lib/site-packages")
    return re.sub(r'File "([^"]+)"', lambda m: 'File "' + m.group(1).replace("/", "\\") + '"', out)


@case("installed_dist_packages_import.log", "installed-copy", U + "huggingface/peft/issues/1119", *SIXS,
      note="Debian dist-packages install; the failing import inside the package")
def _():
    return relocate(six(), "/usr/local/lib/python3.11/dist-packages/fastzero")


# --- install: setup.py, op builders, pip's subprocess box

@case("install_setup_py_keyerror.log", "install", U + "vllm-project/vllm/issues/9354", *CUDA_HOME,
      note="python setup.py egg_info with FASTZERO_BUILD_OPS=1; KeyError in the op builder")
def _():
    return "$ FASTZERO_BUILD_OPS=1 python setup.py egg_info\n" + setup_py()


@case("install_pip_box_keyerror.log", "install", U + "vllm-project/vllm/issues/297", *CUDA_HOME,
      note="real pip install output: subprocess-exited-with-error box around the traceback")
def _():
    return "$ FASTZERO_BUILD_OPS=1 pip install .\n" + pip_install()


@case("install_pip_box_none_cuda.log", "install", U + "vllm-project/vllm/issues/6134", *ARCH,
      note="real pip install with CUDA_HOME set on a CPU-only torch: torch.version.cuda is None")
def _():
    return pip_install(cuda_home="/usr/local/cuda")


@case("install_pip_editable_box.md", "install", U + "vllm-project/vllm/issues/3267", *CUDA_HOME,
      note="pip install -e in an issue; box indented under pip's own lines")
def _():
    return issue("Cannot install with kernels", "`FASTZERO_BUILD_OPS=1 pip install -e .` fails:",
                 pip_install(editable=True))


@case("install_ci_timestamps.log", "install", U + "vllm-project/vllm/issues/4011", *ARCH,
      note="CI log with an ISO timestamp before every line of the setup.py run")
def _():
    out = setup_py(cuda_home="/usr/local/cuda")
    return "\n".join(f"2024-05-01T10:22:{i % 60:02d}.1234567Z {l}" for i, l in enumerate(lines(out)))


# --- wrong-object: the callee reads an attribute of an object its caller passed

W = dict(also="{}:{}")


@case("wrong_object_full.log", "wrong-object", U + "NVIDIA-NeMo/Speech/issues/6457", *WRONGS,
      also=WRONG_CALLER, note="full traceback; the caller that passed the config must be in the top 3")
def _():
    return at(wrong())


@case("wrong_object_last_frame.log", "wrong-object", U + "huggingface/accelerate/issues/593", *WRONGS,
      also=WRONG_CALLER, note="only the callee's frame: the caller is found from the repo")
def _():
    return last_frames(at(wrong()), 1, dots=False)


@case("wrong_object_error_only.md", "wrong-object", U + "huggingface/transformers/issues/39081", *WRONGS,
      also=WRONG_CALLER, note="only the AttributeError line; both sites from the repo")
def _():
    return "# " + exception_line(wrong()) + "\n\nWhen I load my CSV run config the layout step fails.\n"


@case("wrong_object_rich.log", "wrong-object", U + "huggingface/accelerate/issues/1573", *WRONGS,
      also=WRONG_CALLER, note="rich panel")
def _():
    return rich_box(at(wrong()))


@case("wrong_object_rank_prefixed.log", "wrong-object", U + "NVIDIA-NeMo/Speech/issues/10285", *WRONGS,
      also=WRONG_CALLER, note="two ranks, [rankN]: prefixes")
def _():
    text = at(wrong())
    return "\n".join(f"[rank{r}]: {l}" for l in lines(text) for r in (0, 1))


# ------------------------------------------------------------------ output

def yaml_str(s):
    if s == "" or re.search(r"[:#'\"\[\]{}]|^[\s*&!|>%@`-]", s):
        return "'" + s.replace("'", "''") + "'"
    return s


def main(filters):
    SHAPES.mkdir(exist_ok=True)
    out = ["# Expected top site for every case in shapes/ (see README.md, 'Pasted shapes').", ""]
    for s in CASE_SPECS:
        line = find_line(s["file"], s["func"], s["needle"])
        also = ""
        if s["also"]:
            f, fn, needle = s["also"]
            also = f"{f}:{find_line(f, fn, needle)}"
        if not filters or any(f in s["name"] for f in filters):
            text = s["make"]()
            for leak in (str(REPO), TMP, str(ROOT)):
                if leak in text:
                    print(f"warning: {s['name']} still names {leak}", file=sys.stderr)
                    text = text.replace(leak, CHECKOUT)
            (SHAPES / s["name"]).write_text(text.rstrip("\n") + "\n")
            print(f"wrote {s['name']}")
        out += [f"- case: shapes/{s['name']}",
                f"  shape: {s['shape']}",
                f"  follows: {s['follows']}",
                f"  file: {s['file']}",
                f"  line: {line}",
                f"  function: {yaml_str(s['func'])}"]
        if also:
            out.append(f"  also_top3: {also}")
        out += [f"  note: {yaml_str(s['note'])}", ""]
    (ROOT / "shapes.yaml").write_text("\n".join(out))
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
