"""Helpers shared by make_cases.py: run the mini repo for real, then dress the output."""
import os
import random
import re
import subprocess
from pathlib import Path

GEN = Path(__file__).resolve().parent
ROOT = GEN.parent                      # tests/data/localize
REPO = ROOT / "repo"
CASES = ROOT / "cases"
PY = "/usr/bin/python3"

_port = [29700]


def next_port():
    _port[0] += 7
    return _port[0]


def run(args, sim=None, env=None, timeout=120):
    """Runs a command in the mini repo and returns stdout+stderr as the user would see them."""
    e = dict(os.environ)
    e.pop("PYTHONSTARTUP", None)
    path = [str(REPO)]
    if sim:
        path.append(str(GEN / sim))
    e.update(PYTHONPATH=":".join(path), PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1",
             FASTZERO_COMM_TIMEOUT="8", COLUMNS="100")
    e.update(env or {})
    args = [a.replace("{port}", str(next_port())) for a in args]
    p = subprocess.run(args, cwd=REPO, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    return p.stdout


def py(*args, **kw):
    return run([PY, *args], **kw)


def pytest(*args, **kw):
    return run([PY, "-m", "pytest", "-p", "no:cacheprovider", *args], **kw)


def launcher(nproc, prefix, *args, **kw):
    return run([PY, "-m", "fastzero.launcher.runner", "--nproc", str(nproc), "--master_port",
                "{port}", "--prefix", prefix, *args], **kw)


def torchrun(nproc, *args, **kw):
    return run([PY, str(GEN / "bin" / "torchrun"), "--nproc_per_node", str(nproc),
                "--master_port", "{port}", "--tee", "3", *args], **kw)


# ---------------------------------------------------------------- dressing

def relocate(text, prefix):
    """Puts the repo at `prefix` (a user's checkout or site-packages)."""
    return text.replace(str(REPO) + "/", prefix.rstrip("/") + "/").replace(str(REPO), prefix)


def relocate_examples(text, script_dir):
    """The user's own scripts live outside the package (site-packages installs)."""
    return text.replace(str(REPO / "examples") + "/", script_dir.rstrip("/") + "/")


def fix_torchrun_bin(text, path="/opt/conda/bin/torchrun"):
    return text.replace(str(GEN / "bin" / "torchrun"), path).replace(
        str(REPO) + "/../gen/bin/torchrun", path)


_CARET = re.compile(r"^(\[rank\d+\]:|\[default\d+\]:|\d+: |E?\s*)?\s*[\^~]+[\s\^~]*$")


def strip_carets(text):
    """Python < 3.11 prints no ^^^^ markers under the code line."""
    return "\n".join(l for l in text.split("\n") if not _CARET.match(l)) + ""


def conda310(text, site="/opt/conda/lib/python3.10/site-packages"):
    """Dresses Debian/3.11 paths as a conda python 3.10 install."""
    text = text.replace("/usr/lib/python3/dist-packages", site)
    text = text.replace("/usr/lib/python3.11/", "/opt/conda/lib/python3.10/")
    text = text.replace("/usr/bin/python3", "/opt/conda/bin/python")
    text = text.replace("Python 3.11.2", "Python 3.10.13")
    text = re.sub(r"  File \"<frozen runpy>\", line 198, in _run_module_as_main\n",
                  "  File \"/opt/conda/lib/python3.10/runpy.py\", line 196, in _run_module_as_main\n"
                  "    return _run_code(code, main_globals, None,\n", text)
    text = re.sub(r"  File \"<frozen runpy>\", line 88, in _run_code\n",
                  "  File \"/opt/conda/lib/python3.10/runpy.py\", line 86, in _run_code\n"
                  "    exec(code, run_globals)\n", text)
    return strip_carets(text)


def redate(text, day="2024-05-01", hour=10):
    """Moves the logger's timestamps to a plausible date (the sandbox clock is odd)."""
    def sub(m):
        return f"{day} {hour + int(m.group(2)[:2]) % 3:02d}:{m.group(3)}"
    text = re.sub(r"(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}:\d{2}[,.]\d+)", sub, text)
    return re.sub(r"\d{4}-\d{2}-\d{2}_(\d{2}):", lambda m: f"{day}_{hour}:", text)


def only_tail(text, marker):
    i = text.find(marker)
    return text[i:] if i >= 0 else text


def drop_lines(text, pattern):
    r = re.compile(pattern)
    return "\n".join(l for l in text.split("\n") if not r.search(l))


def split_ranks(text, prefix_re):
    """Lines per rank for a prefixed log, plus the unprefixed (launcher) lines in order."""
    per, other = {}, []
    r = re.compile(prefix_re)
    for line in text.split("\n"):
        m = r.match(line)
        if m:
            per.setdefault(int(m.group(1)), []).append(line)
        else:
            other.append(line)
    return per, other


def interleave(streams, seed, chunk=(1, 4)):
    """Merges per-rank line streams the way concurrent writers do: order kept within a rank."""
    rnd = random.Random(seed)
    streams = [list(s) for s in streams]
    out = []
    while any(streams):
        live = [s for s in streams if s]
        s = rnd.choice(live)
        for _ in range(rnd.randint(*chunk)):
            if s:
                out.append(s.pop(0))
    return out


def ansi_traceback(text):
    """Colours a plain traceback like rich/colorlog handlers do in some users' terminals."""
    out = []
    for line in text.split("\n"):
        if line.startswith("Traceback"):
            out.append("\x1b[31m" + line + "\x1b[0m")
        elif re.match(r"^\s*File \"", line):
            out.append(re.sub(r'File "([^"]+)", line (\d+)',
                              lambda m: f'File "\x1b[36m{m.group(1)}\x1b[0m", line \x1b[33m{m.group(2)}\x1b[0m',
                              line))
        elif re.match(r"^[A-Za-z_.]+(Error|Exception)\b", line):
            out.append("\x1b[1;31m" + line + "\x1b[0m")
        else:
            out.append(line)
    return "\n".join(out)


def write(name, text, crlf=False):
    path = CASES / name
    text = text.rstrip("\n") + "\n"
    data = text.replace("\r\n", "\n")
    if crlf:
        data = data.replace("\n", "\r\n")
    path.write_bytes(data.encode())
    return path


# ---------------------------------------------------------------- expected sites

def def_ranges(path):
    """(name, start, end) for every def in a file, by indentation (works on files that do not parse)."""
    lines = (REPO / path).read_text().split("\n")
    defs = []
    for i, l in enumerate(lines, 1):
        m = re.match(r"^(\s*)(?:async\s+)?def\s+(\w+)", l)
        if m:
            defs.append([m.group(2), i, len(m.group(1))])
    out = []
    for name, start, ind in defs:
        end = start
        for j in range(start, len(lines)):
            l = lines[j]
            if l.strip() and (len(l) - len(l.lstrip())) <= ind and not l.lstrip().startswith(")"):
                break
            end = j + 1
        out.append((name, start, end))
    return out


def enclosing_def(path, line):
    best = None
    for name, start, end in def_ranges(path):
        if start <= line <= end and (best is None or start > best[1]):
            best = (name, start, end)
    return best[0] if best else "<module>"


def find_line(path, func, needle):
    lines = (REPO / path).read_text().split("\n")
    hits = [i for i, l in enumerate(lines, 1) if needle in l and enclosing_def(path, i) == func]
    if len(hits) != 1:
        raise SystemExit(f"{path}:{func}: needle {needle!r} matched {hits}")
    return hits[0]
