"""Regenerates the cases of shapes_more.yaml: five more shapes of real multi-node and installed runs.

    /usr/bin/python3 tests/data/localize/gen/make_shapes_more.py

Every traceback comes from really running repo/ (fastzero) or meshtrain/ (a second mini repo whose
root is installed as the package `meshtrain`, see its pyproject.toml) with /usr/bin/python3. The
output is then dressed the way the public report named in `follows` shows it: host prefixes of
multi-node launchers, the installed copy in a conda or Debian site-packages, a paste cut in the
middle of a long recursion. No report's text is copied; host names and paths are made up.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from common import PY, REPO, ROOT, conda310, find_line, interleave, relocate, strip_carets

MESH = ROOT / "meshtrain"
SHAPES = ROOT / "shapes"
TMP = Path(tempfile.mkdtemp(prefix="mt-shapes-"))
SITE = "/opt/conda/envs/mesh/lib/python3.10/site-packages"
CHECKOUT = "/home/alice/src/fastzero"
U = "https://github.com/"

# ------------------------------------------------------------------ real runs


def run_script(name, body, repo):
    """Runs a user script that imports the repo (fastzero from its checkout, meshtrain from an
    installed copy: a site-packages folder holding a `meshtrain` link to the repo)."""
    script = TMP / name
    script.write_text(textwrap.dedent(body))
    site = TMP / "site"
    if not (site / "meshtrain").exists():
        site.mkdir(exist_ok=True)
        (site / "meshtrain").symlink_to(MESH)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1", COLUMNS="100",
               PYTHONPATH=str(REPO) if repo == "fastzero" else str(site))
    p = subprocess.run([PY, str(script)], cwd=TMP, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    out = p.stdout.replace(str(script), f"/home/alice/work/{name}")
    if repo == "fastzero":
        return strip_carets(relocate(out, CHECKOUT))
    return conda310(out.replace(str(site), SITE), site=SITE)


def lines(text):
    return text.rstrip("\n").split("\n")


def traceback_of(text):
    ls = lines(text)
    start = max(i for i, l in enumerate(ls) if l.startswith("Traceback (most recent"))
    return "\n".join(ls[start:])


def mesh_line(path, func, needle):
    hits = [i for i, l in enumerate((MESH / path).read_text().split("\n"), 1) if needle in l]
    if len(hits) != 1:
        raise SystemExit(f"{path}: needle {needle!r} matched {hits}")
    return hits[0]


# The failures (each a real run).
CFG_KEY = """\
from fastzero.utils.config import FastZeroConfig

cfg = FastZeroConfig({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 8,
                      "gradient_accumulation_steps": 1})
"""
ZERO_DIV = """\
from fastzero.utils.config import FastZeroConfig

FastZeroConfig({"train_batch_size": 16, "zero_optimization": {"stage": 1}}, world_size=2)
"""
PG = """\
from fastzero.comm import wrappers as comm

print("rank", comm.get_rank())
"""
STATE = """\
import torch
from meshtrain.optim import ShardedAdam

model = torch.nn.Linear(4, 4)
opt = ShardedAdam(model.parameters(), lr=1e-3)
print("state entries:", len(opt.state))
"""
MESH_ATTR = """\
from meshtrain.engine.config import MeshConfig

cfg = MeshConfig(world_size=8, tensor_parallel=2)
print("data parallel groups:", cfg.data_parallel_size)
"""
BUCKET_LEN = """\
import torch
from meshtrain.optim import GradBuckets

model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.Linear(64, 8))
buckets = GradBuckets(model.parameters(), bucket_size=4096)
print("buckets:", len(buckets))
"""
MESH_SUBSCRIPT = """\
from meshtrain.engine.config import MeshConfig

cfg = MeshConfig(world_size=4, tensor_parallel=2)
tp = cfg["tensor_parallel"]
"""
TRAINER = """\
import torch
from meshtrain.engine.config import MeshConfig
from meshtrain.engine.trainer import Trainer
from meshtrain.optim import ShardedAdam


def main():
    model = torch.nn.Linear(4, 1)
    trainer = Trainer(model, ShardedAdam(model.parameters()), MeshConfig(world_size=1))
    {call}


if __name__ == "__main__":
    main()
"""
REDUCE = TRAINER.replace("{call}", 'trainer.train_step({"x": torch.randn(2, 4)})')
SYNC = TRAINER.replace("{call}", "trainer.sync_params()")
GATHER = TRAINER.replace("{call}", "print(trainer.gather_loss(torch.tensor(0.5)))")
MESH_ZDIV = """\
from meshtrain.engine.config import MeshConfig

cfg = MeshConfig(world_size=8, tensor_parallel=0)
print(cfg.describe())
"""
BATCH_KEY = TRAINER.replace("{call}", 'trainer.train_step({"inputs": torch.randn(2, 4)})')
ACCEL = """\
from meshtrain.accelerator import CPUAccelerator

acc = CPUAccelerator(lazy=True)
print(acc.memory_summary())
"""
MOVE = """\
import torch
from meshtrain.utils.move import to_device

batch = {"x": torch.randn(2, 4), "names": ["a", "b"]}
batch = to_device(batch, "cpu")
"""

# Where each failure must be localized: (repo, file, function, needle).
SITES = {
    "cfg": ("repo", "fastzero/utils/config.py", "from_dict", 'stage = cfg["zero_optimization"]["stage"]'),
    "zdiv": ("repo", "fastzero/utils/config.py", "get_grad_accum_steps",
             "return self.train_batch_size // (self.micro_batch_per_gpu * dp_world)"),
    "pg": ("repo", "fastzero/comm/wrappers.py", "get_rank", "return dist.get_rank(group=group)"),
    "state": ("meshtrain", "optim/sharded.py", "_init_state", "self.state = {"),
    "mesh_attr": ("meshtrain", "engine/config.py", "__init__", "self.world_size = world_size"),
    "mesh_class": ("meshtrain", "engine/config.py", "<class>", "class MeshConfig:"),
    "bucket_class": ("meshtrain", "optim/sharded.py", "<class>", "class GradBuckets:"),
    "reduce": ("meshtrain", "engine/trainer.py", "reduce_gradients", 'comm.all_reduce(grads, op="avg")'),
    "sync": ("meshtrain", "engine/trainer.py", "sync_params", "comm.broadcast(p.data, src="),
    "gather": ("meshtrain", "engine/trainer.py", "gather_loss", "comm.all_gather(out, loss"),
    "mesh_zdiv": ("meshtrain", "engine/config.py", "data_parallel",
                  "return self.world_size // (self.tensor_parallel * self.pipeline_parallel)"),
    "batch_key": ("meshtrain", "engine/trainer.py", "train_step", 'loss = self.model(batch["x"])'),
    "accel": ("meshtrain", "accelerator/cpu.py", "__getattr__", "return getattr(self.device_props, name)"),
    "move": ("meshtrain", "utils/move.py", "to_device", "return _move_sequence(obj, device)"),
}


def fz(body, name):
    return traceback_of(run_script(name, body, "fastzero"))


def mt(body, name):
    return traceback_of(run_script(name, body, "meshtrain"))


def prefixed(text, prefix):
    return [prefix + l for l in lines(text)]


def launcher_lines(host_rank, n=4, stamp="2024-05-01 10:22"):
    """Log lines a node's launcher prints before the failure (written for the case)."""
    return [f"[{stamp}:{10 + i:02d},{114 + i * 7}] [INFO] [launch.py:{140 + i}:main] "
            f"node_rank={host_rank} local_rank={i % 2} starting worker" for i in range(n)]


def head_tail(text, head, tail):
    ls = lines(text)
    return "\n".join(ls[:head] + ["..."] + ls[-tail:])


def windows(text, root="C:\\Users\\bob\\miniconda3\\envs\\mesh\\Lib\\site-packages"):
    def path(m):
        return 'File "' + m.group(1).replace(SITE, root).replace("/home/alice/work", "C:\\Users\\bob\\work").replace("/", "\\") + '"'
    return re.sub(r'File "([^"]+)"', path, text)


CASES = []


def case(name, shape, follows, site, note):
    def deco(fn):
        CASES.append(dict(name=name, shape=shape, follows=follows, site=site, note=note, make=fn))
        return fn
    return deco


# --- host-prefix: multi-node launchers put "host: " before every line

@case("host_pdsh_two_nodes_keyerror.log", "host-prefix", U + "huggingface/accelerate/issues/1317", "cfg",
      "two nodes (pdsh \'node7: \' / \'node8: \'), launcher lines, the same KeyError on both, interleaved")
def _():
    tb = fz(CFG_KEY, "train.py")
    a = prefixed("\n".join(launcher_lines(0)) + "\n" + tb, "node7: ")
    b = prefixed("\n".join(launcher_lines(1)) + "\n" + tb, "node8: ")
    return "\n".join(interleave([a, b], seed=7))


@case("host_ip_zero_division.log", "host-prefix", U + "huggingface/transformers/issues/22689", "zdiv",
      "IP addresses as host names, timestamped launcher lines, one node fails")
def _():
    tb = fz(ZERO_DIV, "train.py")
    ok = [f"10.4.0.13: [2024-05-01 10:23:{i:02d},501] [INFO] [engine.py:88:step] step={i} loss={2.5 - i / 10:.3f}"
          for i in range(6)]
    bad = prefixed("\n".join(launcher_lines(0)) + "\n" + tb, "10.4.0.12: ")
    return "\n".join(interleave([ok, bad], seed=3))


@case("host_rank_prefixed_pg.log", "host-prefix", U + "huggingface/accelerate/issues/1239", "pg",
      "host then [rankN]: on every line, two nodes of two ranks")
def _():
    tb = fz(PG, "train.py")
    streams = [prefixed(tb, f"{h}: [rank{r}]: ") for h, r in
               (("gpu-a01", 0), ("gpu-a01", 1), ("gpu-a02", 2), ("gpu-a02", 3))]
    return "\n".join(interleave(streams, seed=11))


@case("host_role_prefix_keyerror.log", "host-prefix", U + "huggingface/accelerate/issues/1239", "cfg",
      "torchrun --role $NODENAME: --tee 3: \'[juno12:0]:\' per line on two nodes")
def _():
    tb = fz(CFG_KEY, "train.py")
    streams = [prefixed(tb, f"[{h}:{r}]:") for h in ("juno12", "juno13") for r in (0, 1)]
    return "\n".join(interleave(streams, seed=5))


@case("host_pdsh_exit_issue.md", "host-prefix", U + "huggingface/accelerate/issues/1317", "zdiv",
      "issue body: host-prefixed traceback in a code fence and pdsh\'s exit lines after it")
def _():
    tb = fz(ZERO_DIV, "train.py")
    body = "\n".join(prefixed(tb, "worker-1: "))
    return ("### System Info\n\n2 nodes x 8 GPUs, pdsh launcher\n\n### Reproduction\n\n"
            "Both nodes start, then worker-1 dies right after building the config:\n\n```\n" + body +
            "\npdsh@login01: worker-1: ssh exited with exit code 1\n```\n")


@case("host_fqdn_one_node_fails.log", "host-prefix", U + "huggingface/transformers/issues/22689", "cfg",
      "fully qualified host names; the other node keeps logging between the failing node\'s lines")
def _():
    tb = fz(CFG_KEY, "train.py")
    ok = [f"trn-st-7.cluster.local: epoch 0 step {i} loss {3.1 - i / 20:.3f}" for i in range(12)]
    bad = prefixed(tb, "trn-st-8.cluster.local: ")
    return "\n".join(interleave([ok, bad], seed=2))


# --- installed-layout: the repo's root installed as the package `meshtrain`

@case("installed_root_conda_zero_division.log", "installed-layout", U + "Lightning-AI/pytorch-lightning/issues/18277",
      "mesh_zdiv", "the repo\'s engine/config.py printed as site-packages/meshtrain/engine/config.py")
def _():
    return mt(MESH_ZDIV, "layout.py")


@case("installed_root_dist_packages_keyerror.log", "installed-layout", U + "huggingface/transformers/issues/16688",
      "batch_key", "Debian / Colab dist-packages install")
def _():
    return mt(BATCH_KEY, "train.py").replace(SITE, "/usr/local/lib/python3.10/dist-packages")


@case("installed_root_windows_keyerror.md", "installed-layout", U + "huggingface/trl/issues/4535", "batch_key",
      "issue body, Windows paths with backslashes")
def _():
    return ("**Describe the bug**\n\nTraining on Windows fails on the first step:\n\n```\n" +
            windows(mt(BATCH_KEY, "train.py")) + "\n```\n")


@case("installed_root_egg_zero_division.log", "installed-layout", U + "Lightning-AI/pytorch-lightning/issues/18277",
      "mesh_zdiv", "an egg install: site-packages/meshtrain-0.2.0-py3.10.egg/meshtrain/...")
def _():
    return mt(MESH_ZDIV, "layout.py").replace(SITE + "/meshtrain/", SITE + "/meshtrain-0.2.0-py3.10.egg/meshtrain/")


@case("installed_root_venv_cut_head.log", "installed-layout", U + "NVIDIA-NeMo/Speech/issues/6457", "batch_key",
      "a venv install, pasted from its last frame (no header)")
def _():
    tb = mt(BATCH_KEY, "train.py").replace(SITE, "/home/alice/.venv/lib/python3.10/site-packages")
    return "\n".join(lines(tb)[-3:])


# --- named-class: the message names a repo class; no frame of the repo\'s own code is printed

@case("class_attr_set_late.log", "named-class", U + "Lightning-AI/pytorch-lightning/issues/6242", "state",
      "raised in the user\'s script; the attribute is set only in a method called later")
def _():
    return mt(STATE, "inspect_opt.py")


@case("class_attr_did_you_mean.log", "named-class", U + "huggingface/transformers/issues/39081", "mesh_attr",
      "3.11\'s \'Did you mean\' suffix; the attribute is set nowhere: the class\'s __init__")
def _():
    return mt(MESH_ATTR, "layout.py")


@case("class_no_len_issue.md", "named-class", U + "Lightning-AI/pytorch-lightning/issues/6242", "bucket_class",
      "issue body; TypeError: object of type \'GradBuckets\' has no len(): the class statement")
def _():
    return ("## Bug\n\nCounting the buckets fails:\n\n```python\n" + BUCKET_LEN + "```\n\n### Error\n\n```\n" +
            mt(BUCKET_LEN, "buckets.py") + "\n```\n")


@case("class_not_subscriptable.log", "named-class", U + "huggingface/transformers/issues/39081", "mesh_class",
      "TypeError: \'MeshConfig\' object is not subscriptable")
def _():
    return mt(MESH_SUBSCRIPT, "layout.py")


@case("class_attr_error_only.md", "named-class", U + "huggingface/transformers/issues/39081", "state",
      "only the exception line, as an issue title")
def _():
    return ("# " + lines(mt(STATE, "inspect_opt.py"))[-1] +
            "\n\nI build the optimizer and read its state before the first step.\n")


@case("class_attr_rank_prefixed.log", "named-class", U + "NVIDIA-NeMo/Speech/issues/10285", "state",
      "two ranks, [rankN]: prefixes")
def _():
    tb = mt(STATE, "inspect_opt.py")
    return "\n".join(interleave([prefixed(tb, f"[rank{r}]: ") for r in (0, 1)], seed=4))


# --- argument-check: a wrapper\'s type check raises; the repo caller passed the value

@case("argcheck_expected_type.log", "argument-check", U + "huggingface/accelerate/pull/1286", "reduce",
      "\'Expected tensor to be of type\' raised two wrapper frames deep")
def _():
    return mt(REDUCE, "train.py")


@case("argcheck_must_be.log", "argument-check", U + "huggingface/accelerate/issues/1263", "sync",
      "\'src must be a non-negative rank\' raised in the wrapper")
def _():
    return mt(SYNC, "train.py")


@case("argcheck_invalid_argument.log", "argument-check", U + "huggingface/accelerate/pull/1286", "gather",
      "\'invalid argument\' raised in the wrapper")
def _():
    return mt(GATHER, "train.py")


@case("argcheck_host_prefixed.log", "argument-check", U + "huggingface/accelerate/issues/1317", "reduce",
      "two nodes with host prefixes")
def _():
    tb = mt(REDUCE, "train.py")
    return "\n".join(interleave([prefixed(tb, "node3: "), prefixed(tb, "node4: ")], seed=9))


@case("argcheck_last_frames.md", "argument-check", U + "huggingface/accelerate/issues/593", "reduce",
      "issue body; only the last three frames, starting with \'...\'")
def _():
    ls = lines(mt(REDUCE, "train.py"))
    return "The reduce fails:\n\n```\n...\n" + "\n".join(ls[-7:]) + "\n```\n"


# --- recursion: the repeated frames are the site; the cycle says which call to guard

@case("recursion_getattr_installed.log", "recursion", U + "Lightning-AI/pytorch-lightning/issues/19307", "accel",
      "__getattr__ calls itself; [Previous line repeated]; installed layout")
def _():
    return mt(ACCEL, "accel.py")


@case("recursion_getattr_tail.log", "recursion", U + "huggingface/accelerate/issues/1516", "accel",
      "only the repeated frame, the repeat line and the error")
def _():
    return "\n".join(lines(mt(ACCEL, "accel.py"))[-8:])


@case("recursion_getattr_host_prefixed.log", "recursion", U + "huggingface/accelerate/issues/1317", "accel",
      "two nodes with host prefixes")
def _():
    tb = mt(ACCEL, "accel.py")
    return "\n".join(interleave([prefixed(tb, "node1: "), prefixed(tb, "node2: ")], seed=6))


@case("recursion_cycle_head_tail.log", "recursion", U + "Lightning-AI/pytorch-lightning/issues/19541", "move",
      "a three-frame cycle, 2000 lines pasted as head, \'...\', tail; the innermost frame is outside the call")
def _():
    return head_tail(mt(MOVE, "move.py"), 13, 12)


@case("recursion_cycle_windows.md", "recursion", U + "Lightning-AI/pytorch-lightning/issues/13042", "move",
      "issue body; the same cycle with Windows paths, head and tail")
def _():
    return ("**Bug**\n\nMoving a batch with a list of names never returns:\n\n```\n" +
            head_tail(windows(mt(MOVE, "move.py")), 11, 8) + "\n```\n")


# ------------------------------------------------------------------ output

def yaml_str(s):
    if s == "" or re.search(r"[:#'\"\[\]{}]|^[\s*&!|>%@`-]", s):
        return "'" + s.replace("'", "''") + "'"
    return s


def expected(site):
    repo, path, func, needle = SITES[site]
    if repo == "repo":
        return repo, path, find_line(path, func, needle), func
    return repo, path, mesh_line(path, func, needle), "<module>" if func == "<class>" else func


def main(filters):
    out = ["# Expected top site for every case of the five shapes of make_shapes_more.py",
           "# (see README.md, 'More pasted shapes'); `repo` is the mini repo the case runs against.", ""]
    for c in CASES:
        repo, path, line, func = expected(c["site"])
        if not filters or any(f in c["name"] for f in filters):
            text = c["make"]()
            for leak in (str(REPO), str(MESH), str(TMP), str(ROOT)):
                if leak in text:
                    raise SystemExit(f"{c['name']} still names {leak}")
            (SHAPES / c["name"]).write_text(text.rstrip("\n") + "\n")
            print(f"wrote {c['name']}")
        out += [f"- case: shapes/{c['name']}", f"  shape: {c['shape']}", f"  follows: {c['follows']}",
                f"  repo: {repo}", f"  file: {path}", f"  line: {line}", f"  function: {yaml_str(func)}",
                f"  note: {yaml_str(c['note'])}", ""]
    (ROOT / "shapes_more.yaml").write_text("\n".join(out))
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
