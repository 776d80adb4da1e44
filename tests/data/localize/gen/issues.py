"""User scripts run for the issue cases, and the markdown issue bodies around their real output."""

ENGINE_CFG = ('{"train_batch_size": 2, "train_micro_batch_size_per_gpu": 2, '
              '"gradient_accumulation_steps": 1, "zero_optimization": {"stage": 0}}')

PG_SCRIPT = f"""import torch
from fastzero.model.gpt import TinyGPT
from fastzero.runtime.engine import FastZeroEngine
from fastzero.checkpoint.saver import save_checkpoint

model = TinyGPT()
engine = FastZeroEngine(model, {ENGINE_CFG})
# ... training on one GPU ...
save_checkpoint(engine, "/tmp/fz-export", "final", client_state={{}})
"""

TP_SCRIPT = """import torch
from fastzero.model.parallel_layers import ParallelMLP

torch.manual_seed(0)
mlp = ParallelMLP(hidden=64, tp_size=2)
x = torch.randn(4, 128, 64)
y = mlp(x)
print(y.shape)
"""

HALF_SCRIPT = """import torch
from fastzero.model.parallel_layers import ParallelMLP

model = torch.nn.Sequential(torch.nn.LayerNorm(64), ParallelMLP(64, dtype=torch.float16))
x = torch.randn(8, 64)
with torch.no_grad():
    y = model(x)
print(y.dtype)
"""

SERVE_SCRIPT = """import torch
from fastzero.model.gpt import TinyGPT
from fastzero.inference.engine import InferenceEngine

engine = InferenceEngine(TinyGPT(), heads=2)
engine.register_post_hook(lambda logits: logits.float())
prompt = torch.randint(0, 64, (1, 5))
out = engine.generate(prompt, max_new_tokens=16, use_cache=True)
print(out.tolist())
"""

HOOK_SCRIPT = """import torch
from fastzero.model.gpt import TinyGPT
from fastzero.inference.engine import InferenceEngine

model = TinyGPT()
engine = InferenceEngine(model, heads=2)
prompt = torch.randint(0, 64, (2, 7))
out = engine.generate(prompt, max_new_tokens=4)
print(out)
"""

FLASH_SCRIPT = """import time
import torch
from fastzero.model.gpt import TinyGPT
from fastzero.inference.engine import InferenceEngine

engine = InferenceEngine(TinyGPT(hidden=64), heads=4, use_flash=True)
prompt = torch.randint(0, 64, (4, 32))
t0 = time.time()
out = engine.generate(prompt, max_new_tokens=32, apply_hooks=False)
print(f"{out.shape} in {time.time() - t0:.2f}s")
"""

DEVICE_SCRIPT = """import torch
from fastzero.model.gpt import TinyGPT
from fastzero.inference.engine import InferenceEngine

model = TinyGPT(vocab=64, hidden=32)
engine = InferenceEngine(model, heads=4)
prompt = torch.rand(1, 6)
out = engine.generate(prompt, max_new_tokens=8, apply_hooks=False)
"""

OOM_SCRIPT = """import torch
from fastzero.model.gpt import TinyGPT
from fastzero.inference.engine import InferenceEngine

model = TinyGPT(vocab=64, hidden=16, layers=2)
engine = InferenceEngine(model, max_len=2 ** 31, heads=2)
engine.allocate_kv_cache(batch=64, layers=len(model.blocks))
"""

BIAS_SCRIPT = """import torch
from fastzero.comm import wrappers as comm
from fastzero.model.parallel_layers import ColumnParallelLinear

comm.init_distributed("gloo")
tp = comm.get_world_size()
layer = ColumnParallelLinear(64, 128, tp_size=tp)
x = torch.randn(2, 10, 64)
y = layer(x)
print(comm.get_rank(), y.shape)
"""

MAKE_CKPT = """import os, torch
from fastzero.model.gpt import TinyGPT
os.makedirs("{d}/global_step1000", exist_ok=True)
torch.save({{"model": TinyGPT().state_dict(), "global_steps": 1000}},
           "{d}/global_step1000/mp_rank_00_model_states.pt")
"""

COLLECT_ENV = """PyTorch version: {torch}
Is debug build: False
CUDA used to build PyTorch: 12.1
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.4 LTS (x86_64)
GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0
Clang version: Could not collect
CMake version: version 3.27.9
Libc version: glibc-2.35

Python version: 3.10.13 (main, Sep 11 2023, 13:44:35) [GCC 11.2.0] (64-bit runtime)
Python platform: Linux-5.15.0-97-generic-x86_64-with-glibc2.35
Is CUDA available: True
CUDA runtime version: 12.1.105
GPU models and configuration:
GPU 0: NVIDIA A100-SXM4-80GB
GPU 1: NVIDIA A100-SXM4-80GB

Nvidia driver version: 535.161.07
cuDNN version: Probably one of the following:
/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7

Versions of relevant libraries:
[pip3] numpy==1.26.4
[pip3] torch=={torch}
[pip3] triton==2.1.0
[pip3] fastzero==0.4.2
[conda] pytorch-cuda              12.1                 ha16c6d3_5    pytorch"""

FZ_REPORT = """--------------------------------------------------
fastzero C++/CUDA extension op report
--------------------------------------------------
NOTE: Ops not installed will be just-in-time (JIT) compiled at
      runtime if needed. Op compatibility means that your system
      meet the required dependencies to JIT install the op.
--------------------------------------------------
op name ................ installed .. compatible
--------------------------------------------------
fused_adam ............. [NO] ....... [OKAY]
flat_partition ......... [NO] ....... [OKAY]
--------------------------------------------------
fastzero general environment info:
torch install path ............... ['/opt/conda/lib/python3.10/site-packages/torch']
torch version .................... 2.1.2+cu121
fastzero install path ............ ['/opt/conda/lib/python3.10/site-packages/fastzero']
fastzero info .................... 0.4.2, unknown, unknown
torch cuda version ............... 12.1
nvcc version ..................... 12.1
shared memory (/dev/shm) size .... 503.72 GB"""


def batch_assertion(log):
    return f"""### Describe the bug

Moving from 2 to 4 GPUs with the same `ds_config.json`, every rank dies with an assertion about
`train_batch_size` before the first step. With 2 GPUs the same config works.

### To Reproduce

```bash
torchrun --nproc_per_node 4 examples/train.py --config ds_config.json
```

`ds_config.json`:

```json
{{
  "train_batch_size": 32,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 4,
  "zero_optimization": {{"stage": 2}}
}}
```

### Expected behavior

I would expect the config to be rejected with a clear message or the accumulation steps to be
recomputed for the new world size.

### Logs

<details>
<summary>full output</summary>

```
{log}
```

</details>

### System info

- fastzero 0.4.2 (from source, main @ 3c1f0a2)
- torch 2.1.2+cu121, 1 node x 4 A100 80GB
"""


def torch_six(log):
    return f"""After upgrading PyTorch to 2.1 our training script no longer starts. It fails while
importing fastzero, before anything else happens.

**To Reproduce**

```
pip install torch==2.1.2 fastzero==0.4.2
python /workspace/llm/train.py
```

**Error**

```
{log}
```

**Environment** (`python -m torch.utils.collect_env`)

```
{COLLECT_ENV.format(torch="2.1.2+cu121")}
```

Pinning `torch<2` works around it.
"""


def lrscheduler(log):
    return f"""### Describe the bug

Using `--lr-schedule` crashes at import time. I first thought this came from the engine refactor
in `fastzero/runtime/engine.py` (the optimizer is now created there), but reverting that file does
not help.

### To Reproduce

```bash
python /home/chen/exp/train.py --lr-schedule
```

### Error

```text
{log}
```

### Environment

torch 1.13.1, python 3.10, fastzero 0.4.2 from PyPI.
"""


def syntax_py311(log):
    return f"""### Describe the bug

With `"wall_clock_breakdown": true` both ranks crash as soon as the engine is built. A colleague on
Python 3.12 does not see it. We are on the NGC image with Python 3.11.

### To Reproduce

```
torchrun --nproc_per_node 2 examples/train.py --config cfg/timers.json
```

### Logs

```
{log}
```

### Additional context

Setting `wall_clock_breakdown` to false works.
"""


def pg_not_initialized(log):
    return f"""### Describe the bug

Saving a checkpoint from a single-GPU notebook (no launcher, no `torch.distributed`) fails.
The traceback goes through the engine, and I suspect the recent change to
`fastzero/runtime/engine.py` that made the engine always distributed-aware.

### To Reproduce

```python
{PG_SCRIPT.strip()}
```

### Stack trace

```
{log}
```

Calling `torch.distributed.init_process_group("gloo", rank=0, world_size=1)` first is a workaround,
but single-process saving used to work in 0.3.x.
"""


def zero_none_grad(log):
    return f"""### Describe the bug

Fine-tuning with frozen embeddings and ZeRO stage 2 crashes on the first optimizer step.

### To Reproduce

```python
model = TinyGPT(vocab=64, hidden=16)
model.embed.weight.requires_grad_(False)   # freeze embeddings
engine = FastZeroEngine(model, config)     # zero stage 2
...
engine.backward(loss)
engine.step()
```

### Logs

(copied from my terminal, sorry for the colours)

```
{log}
```

### fz_report

```
{FZ_REPORT}
```
"""


def pipe_assertion(log):
    quoted = "\n".join("> " + l if l else ">" for l in log.rstrip("\n").split("\n"))
    return f"""**@maria-dev** commented:

Quick question before I open a real bug: is `--micro-batches 1` supposed to work with the pipeline
example? I only want to smoke-test 2 stages on my laptop.

---

**@fz-maintainer** replied:

Can you paste what you get? Please use `--stages 2 --micro-batches 1` exactly.

---

**@maria-dev** replied:

Sure, here it is:

{quoted}

So I guess the schedule refuses it; the message could say to use `--micro-batches >= --stages`.
"""


def ckpt_keyerror(log):
    return f"""## Resuming from a checkpoint saved by fastzero fails with KeyError

### Describe the bug
Checkpoints written by `save_checkpoint` cannot be loaded back with `load_checkpoint` (same version
0.4.2). The run was saved at step 1000 on 8 GPUs; I load it on one GPU to evaluate.

### To Reproduce
```
python /workspace/run7/train.py --load-dir /checkpoints/run7 --tag global_step1000 --zero-stage 0
```

### Traceback
```
{log}
```

### Expected behavior
The model weights are restored.

(I am on Windows + WSL, hence the line endings if they look odd.)
"""


def nccl_watchdog(saver_line, allreduce_line):
    return f"""### Describe the bug

Training hangs right after the first checkpoint is written, then after 30 minutes the NCCL watchdog
kills every rank. GPU utilisation is 100% on all 8 GPUs during the hang.

### Logs

```
[2024-05-01 10:22:03,114] [INFO] [saver.py:37:save_checkpoint] [Rank 1] saved checkpoint global_step500 to /ckpt/exp12
[2024-05-01 10:22:03,114] [INFO] [saver.py:37:save_checkpoint] [Rank 3] saved checkpoint global_step500 to /ckpt/exp12
[2024-05-01 10:22:03,121] [INFO] [saver.py:37:save_checkpoint] [Rank 2] saved checkpoint global_step500 to /ckpt/exp12
[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4011, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out.
[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4011, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800441 milliseconds before timing out.
[rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4011, OpType=BARRIER, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800452 milliseconds before timing out.
[rank1]:[E ProcessGroupNCCL.cpp:577] [Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
[rank1]:[E ProcessGroupNCCL.cpp:583] [Rank 1] To avoid data inconsistency, we are taking the entire process down.
[rank1]:terminate called after throwing an instance of 'std::runtime_error'
[rank1]:  what():  [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4011, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out.
[2024-05-01 10:52:05,671] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 48213 closing signal SIGTERM
```

### py-spy

Before the watchdog fired I ran `py-spy dump` on rank 1 and rank 0:

```
$ py-spy dump --pid 48214
Process 48214: /opt/conda/bin/python -u train.py --zero-stage 0 --save-dir /ckpt/exp12 --client-state
Python v3.10.13 (/opt/conda/bin/python3.10)

Thread 48214 (idle): "MainThread"
    all_reduce (torch/distributed/distributed_c10d.py:2050)
    wrapper (torch/distributed/c10d_logger.py:47)
    all_reduce (fastzero/comm/wrappers.py:{allreduce_line})
    main (train.py:84)
    <module> (train.py:89)
Thread 48391 (idle): "Thread-1 (_pin_memory_loop)"
    wait (threading.py:324)
    get (queue.py:180)

$ py-spy dump --pid 48213
Process 48213: /opt/conda/bin/python -u train.py --zero-stage 0 --save-dir /ckpt/exp12 --client-state
Python v3.10.13 (/opt/conda/bin/python3.10)

Thread 48213 (idle): "MainThread"
    barrier (torch/distributed/distributed_c10d.py:3696)
    wrapper (torch/distributed/c10d_logger.py:47)
    save_checkpoint (fastzero/checkpoint/saver.py:{saver_line})
    main (train.py:81)
    <module> (train.py:89)
Thread 48390 (idle): "Thread-1 (_pin_memory_loop)"
    wait (threading.py:324)
    get (queue.py:180)
```

### Environment

```
{COLLECT_ENV.format(torch="2.2.1+cu121")}
```
"""


def mat1_mat2(log):
    return f"""### Describe the bug

`ParallelMLP` with `tp_size=2` fails on a single process (I emulate one tensor-parallel rank to
check shapes). Looks like the second linear layer does not know its input is split.

### To Reproduce

```python
{TP_SCRIPT.strip()}
```

### Output

The log is long, I cut the middle:

```
{log}
```
"""


def dtype_half(log):
    return f"""Hi! Loading the MLP weights in fp16 (to save memory) and feeding fp32 activations fails:

```python
{HALF_SCRIPT.strip()}
```

```
{log}
```

Shouldn't the layer cast its input to the weight dtype (or autocast)? torch 1.13.1, CPU.
"""


def post_hook(log):
    return f"""### Describe the bug

`InferenceEngine.generate` crashes when no post hook was registered, even though
`register_post_hook` is documented as optional.

### To Reproduce

```python
{HOOK_SCRIPT.strip()}
```

### Error

```pytb
{log}
```

### Environment

fastzero 0.4.2 from git, torch 1.13.1, CPU only.
"""


def sdpa(log):
    return f"""### 🐛 Describe the bug

`use_flash=True` crashes on our cluster image (torch 1.13). The README says flash attention is
picked automatically when available; it seems it is used unconditionally.

```python
{FLASH_SCRIPT.strip()}
```

```
{log}
```

### Versions

```
{COLLECT_ENV.format(torch="1.13.1+cu117")}
```
"""


def device_mismatch(log):
    return f"""### Describe the bug

After `model.cuda()` generation fails: the engine keeps its default `device="cpu"` and moves the
prompt there, while the embedding lives on the GPU.

### To Reproduce

```python
import torch
from fastzero.model.gpt import TinyGPT
from fastzero.inference.engine import InferenceEngine

model = TinyGPT(vocab=64, hidden=32).cuda()
engine = InferenceEngine(model, heads=4)
prompt = tokenizer("hello world", return_tensors="pt").input_ids.cuda()
out = engine.generate(prompt, max_new_tokens=8, apply_hooks=False)
```

### Error

```
{log}
```

### Environment

```
{COLLECT_ENV.format(torch="2.1.2+cu121")}
```
"""


def bias_mismatch(log):
    return f"""### Describe the bug

`ColumnParallelLinear(64, 128, tp_size=2)` with `bias=True` fails in forward on both ranks.
Without bias it works. The output has 64 columns per rank but the bias keeps all 128.

### To Reproduce

```python
{BIAS_SCRIPT.strip()}
```

```
python -m fastzero.launcher.runner --nproc 2 /home/omar/tp_bias.py
```

### Logs

```
{log}
```
"""
