#!/usr/bin/env python3
"""Select small real bug-fix commits from local git mirrors into benchmarks/realfix/fixes.jsonl.

Usage:
  scripts/mine_realfix.py [--mirror-root /work/.mirror] [--cap 60] [--max-lines 10]
                          [--out benchmarks/realfix/fixes.jsonl] [--project OWNER/NAME ...]

The mirror root holds one git directory per project, `OWNER+NAME/repo` (a bare mirror) or a
plain clone `OWNER/NAME`. Only git and Python's `ast` module are used; nothing is fetched.

Selection rules (a commit reachable from HEAD is a fix when ALL hold):
  1. Not a merge and not a root commit: exactly one parent.
  2. Not a revert: the subject does not start with "Revert", the message has no "This reverts
     commit", and no later commit of the history says it reverts this one.
  3. The message says it fixes a bug: the subject matches FIX_WORDS (fix, fixes, fixed, fixing,
     bug, bugfix, hotfix, crash, regression), or WEAK_FIX_WORDS (error, broken, wrong, incorrect,
     fail..., exception, mistake, issue) when it does not open (after `[tag]` or `kind:`
     prefixes) with a feature verb (add, support, enable, implement, introduce, refactor, feat,
     improve, allow, update, remove, deprecate, raise, warn); or the message has
     "fixes/closes/resolves #N" or an issue URL. Subjects that also name docs, typos, lint,
     formatting, style, typing, CI, tests, comments or a release (SKIP_WORDS) are dropped.
  4. Exactly one changed Python file is not a test (a test is a path with a `test`/`tests`
     directory, a `test_*.py` / `*_test.py` name, or `conftest.py`). Other changed files may only
     be tests and docs (.md, .rst, .txt, or anything under docs/). The file is not a setup or
     version file, not under docs/, and exists in the parent (not added, deleted or renamed).
  5. That file's change is at most --max-lines changed lines, counted as added + removed
     lines (as in `git diff -U0`), and at least one.
  6. Both sides parse with Python's `ast` module, and their ASTs differ after removing
     docstrings (so whitespace, comment and docstring-only changes are dropped).
  7. At most --cap fixes per project, chosen by the lowest sha256 of the fix commit (a fixed,
     content-independent sample), so no project dominates.

Fault lines: the 1-based lines of the PARENT file that the fix removes or replaces (zero-context
diff hunks, `git diff -U0`), leaving out blank, comment and docstring lines; for a hunk that
removes no such code line (a pure insertion, or one that replaces only comments), the parent line
right after the hunk's removed range, i.e. after the insertion point (clamped to the file's last
line).

Family rules. compat is decided on the text of the removed and added lines (comments dropped):
  compat: a changed line mentions a version (`version`, `__version__`, `packaging`,
          `LooseVersion`, `*_GREATER*`/`*_LESS*` flags), an availability probe (`is_*_available`,
          `*_AVAILABLE`), `hasattr(` / `getattr(`, or `ImportError` / `ModuleNotFoundError`.
Otherwise the parent and fixed ASTs (docstrings removed) are walked in parallel, and each place
where they first diverge is labelled; the family is the first of guard, param, other that labels
any place:
  guard:  an `if`/`while`/`assert`/conditional expression's test changes; an `if`, `while`,
          `assert` or `try` statement is inserted or removed (also wrapping code in one); an `else`
          branch appears or disappears; a comparison operator or `and`/`or` structure changes, or a
          comparison/boolean expression replaces another kind of expression.
  param:  a function's or lambda's parameter list or defaults change; a call to the same callee
          gains, loses or renames a keyword argument, changes a keyword argument's value, or gains
          or loses a positional argument.
  other:  everything else (changed names, constants, expressions, assignments, inserted or
          deleted plain statements, imports).
Only hunks that touch code count: a hunk that changes only blank lines, comments or docstrings
adds no fault lines (but the commit is kept if another hunk changes code).
A change that lands twice (same file, same removed and added lines) is kept once, the oldest.

Symptom: the first `XxxError` / `XxxException` / `Exception` named in the commit message, with the
text after a following colon on the same line (trimmed, at most 160 characters); null if none.

Description: one line written here from the edit's shape (family, what kind of line changed,
the enclosing function in the parent, the line counts). No commit text is copied into it.

Split: test iff int(sha256(fix_commit as ASCII hex)[:8], 16) % 5 < 2, else dev.

Output order: by repo, then committer date, then fix sha.
"""

import argparse
import ast
import hashlib
import json
import os
import re
import subprocess
import sys

DEFAULT_PROJECTS = [
    "huggingface/accelerate",
    "huggingface/peft",
    "huggingface/trl",
    "pytorch/torchtitan",
    "facebookresearch/fairscale",
    "mosaicml/composer",
    "Lightning-AI/pytorch-lightning",
    "NVIDIA/TransformerEngine",
    "NVIDIA/NeMo",
]

# Never read these, whatever the mirror root holds: an outside evaluation is drawn from them.
FORBIDDEN = re.compile(r"deepspeed|megatron|colossal|gpt-neox", re.I)

FIX_WORDS = re.compile(r"\b(fix(es|ed|ing)?|bug(s|fix)?|hotfix|crash(es|ed|ing)?|regression)\b", re.I)
# Words that describe a problem but also appear in feature work ("add an error for ..."): they
# count only when the subject does not open with a feature verb.
WEAK_FIX_WORDS = re.compile(r"\b(errors?|broken|wrong|incorrect|fail(s|ed|ing|ure)?|exception|mistake|issue)\b", re.I)
FEATURE_START = re.compile(
    r"^\W*(\[[^\]]*\]\s*|\w+(\(\w+\))?:\s*)*(add(s|ed|ing)?|support|enable|implement|introduce|refactor|"
    r"feat(ure)?|improve|allow|update|remove|deprecate|raise|warn)\b", re.I)
ISSUE_REF = re.compile(r"\b(fix(es|ed)?|close[sd]?|resolve[sd]?)\s+(#\d+|https://github\.com/\S+/issues/\d+)", re.I)
SKIP_WORDS = re.compile(
    r"\b(typos?|docs?|docstrings?|documentation|readme|lint(ing)?|flake8|ruff|pylint|isort|black|"
    r"format(ting)?|style|typing|type hints?|mypy|pyright|ci|workflows?|release|bump|version bump|"
    r"changelog|tests?|unittests?|comments?|warning message)\b", re.I)
REVERT = re.compile(r"^\s*revert\b", re.I)
REVERTS_SHA = re.compile(r"This reverts commit ([0-9a-f]{7,40})")
SYMPTOM = re.compile(r"\b((?:[A-Z][A-Za-z0-9]*)?(?:Error|Exception))\b(?:\s*:\s*([^\n]*))?")

DOC_EXT = (".md", ".rst", ".txt")


def is_test_path(path):
    parts = path.split("/")
    name = parts[-1]
    if name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"):
        return True
    return any(p in ("test", "tests", "testing", "unittests") for p in parts[:-1])


def is_doc_path(path):
    return path.endswith(DOC_EXT) or path.startswith("docs/") or "/docs/" in path


def is_excluded_source(path):
    name = path.rsplit("/", 1)[-1]
    return (name in ("setup.py", "conf.py", "version.py", "__about__.py", "package_info.py", "_version.py")
            or path.startswith(("docs/", ".github/")))


def git(gitdir, *args, input=None):
    out = subprocess.run(["git", "--git-dir", gitdir, *args], input=input, capture_output=True, check=True)
    return out.stdout


def find_gitdir(root, project):
    owner, name = project.split("/")
    for cand in (os.path.join(root, f"{owner}+{name}", "repo"), os.path.join(root, owner, name, ".git"),
                 os.path.join(root, owner, name)):
        if os.path.isdir(cand):
            return cand
    return None


def read_log(gitdir):
    """Yields (sha, parents, time, message, [changed paths]) for every commit from HEAD."""
    # --name-only reads trees only; line counts need blobs, some of which a mirror may lack, so
    # they are counted later, per candidate (see git_hunks()).
    raw = git(gitdir, "log", "--no-renames", "--name-only", "--format=%x1e%H%x1f%P%x1f%ct%x1f%B%x1f", "HEAD")
    for rec in raw.decode("utf-8", "replace").split("\x1e")[1:]:
        sha, parents, ctime, msg, stat = rec.split("\x1f", 4)
        files = [p for p in stat.strip().splitlines() if p]
        yield sha, parents.split(), int(ctime), msg, files


def message_says_fix(msg):
    subject = msg.strip().split("\n", 1)[0]
    if ISSUE_REF.search(msg):
        return True
    if not FIX_WORDS.search(subject):
        if not WEAK_FIX_WORDS.search(subject) or FEATURE_START.search(subject):
            return False
    # "fix typo", "fix docs", "fix lint": a fix word next to a skip word names a non-bug change.
    return not SKIP_WORDS.search(subject)


def pick_file(files):
    """Returns the single non-test Python file changed, or None when rule 4 fails."""
    sources = []
    for path in files:
        if path.endswith(".py") and not is_test_path(path):
            sources.append(path)
        elif path.endswith(".py") or is_doc_path(path):
            continue
        else:
            return None
    if len(sources) != 1:
        return None
    path = sources[0]
    return None if is_excluded_source(path) else path


class _StripDocstrings(ast.NodeTransformer):
    def generic_visit(self, node):
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
        return node


def ast_key(text):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    return ast.dump(_StripDocstrings().visit(tree))


HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def git_hunks(gitdir, parent, fix, path):
    """Hunks as git computes them (zero context), matching what the fix commit shows."""
    out = git(gitdir, "diff", "-U0", "--no-color", "--no-ext-diff", parent, fix, "--", path).decode("utf-8", "replace")
    hunks = []
    cur = None
    for line in out.splitlines():
        m = HUNK.match(line)
        if m:
            cur = [int(m.group(1)), 1 if m.group(2) is None else int(m.group(2)), [], [],
                   int(m.group(3)), 1 if m.group(4) is None else int(m.group(4))]
            hunks.append(cur)
        elif cur is not None and line.startswith("-") and not line.startswith("---"):
            cur[2].append(line[1:])
        elif cur is not None and line.startswith("+") and not line.startswith("+++"):
            cur[3].append(line[1:])
    return [tuple(h) for h in hunks]


def docstring_lines(tree):
    """Line numbers covered by docstrings."""
    lines = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


def is_code_hunk(hunk, doc_before, doc_after):
    """False when a hunk touches only blank lines, comments and docstrings."""
    start, count, removed, added, new_start, _ = hunk
    for i, line in enumerate(removed):
        if line.strip() and not line.strip().startswith("#") and start + i not in doc_before:
            return True
    for i, line in enumerate(added):
        if line.strip() and not line.strip().startswith("#") and new_start + i not in doc_after:
            return True
    return False


def fault_lines(hunks, n_parent_lines, doc_before=frozenset()):
    """Parent lines a fix changes: its removed code lines (not blank, comment or docstring lines);
    for a hunk that removes no code line, the parent line right after the hunk's removed range."""
    lines = []
    for start, count, removed, *_ in hunks:
        code = [start + i for i, line in enumerate(removed)
                if line.strip() and not line.strip().startswith("#") and start + i not in doc_before]
        if code:
            lines.extend(code)
        elif count > 0:
            lines.append(min(start + count, max(n_parent_lines, 1)))
        else:
            # git's -U0 header for an insertion names the line after which text is inserted.
            lines.append(min(start + 1, max(n_parent_lines, 1)))
    return sorted(set(lines))


COMPAT = re.compile(r"version|packaging|LooseVersion|is_\w+_available|_GREATER|_LESS|_AVAILABLE|\bhasattr\(|"
                    r"\bgetattr\(|ImportError|ModuleNotFoundError")
GUARD_STMTS = (ast.If, ast.Assert, ast.While)


def _same(a, b):
    return ast.dump(a) == ast.dump(b)


def _insert_kind(stmt):
    """What inserting or deleting one whole statement amounts to."""
    if isinstance(stmt, GUARD_STMTS):
        return "guard", "adds or removes a guarding statement"
    if isinstance(stmt, ast.Try):
        return "guard", "adds or removes a try block"
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return "other", "adds or removes an import"
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return "other", "adds or removes a definition"
    return "other", "inserts or deletes statements"


def _diff_lists(a, b, out):
    import difflib
    da = [ast.dump(x) if isinstance(x, ast.AST) else repr(x) for x in a]
    db = [ast.dump(x) if isinstance(x, ast.AST) else repr(x) for x in b]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, da, db, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        n = min(i2 - i1, j2 - j1)
        for k in range(n):
            _diff(a[i1 + k], b[j1 + k], out)
        for x in a[i1 + n:i2] + b[j1 + n:j2]:
            if isinstance(x, ast.stmt):
                out.append(_insert_kind(x))
            else:
                out.append(("other", "changes an expression"))


def _diff(a, b, out):
    """Appends (family, shape) for each place where trees a and b first diverge."""
    if _same(a, b):
        return
    if type(a) is not type(b) or not isinstance(a, ast.AST):
        if isinstance(a, ast.stmt) and isinstance(b, ast.stmt):
            out.append(_insert_kind(b if isinstance(b, GUARD_STMTS + (ast.Try,)) else a))
        elif isinstance(a, ast.IfExp) or isinstance(b, ast.IfExp):
            out.append(("guard", "adds or removes a conditional expression"))
        elif isinstance(a, (ast.Compare, ast.BoolOp)) or isinstance(b, (ast.Compare, ast.BoolOp)):
            out.append(("guard", "changes a condition"))
        else:
            out.append(("other", "changes an expression"))
        return
    if isinstance(a, (ast.If, ast.While, ast.Assert, ast.IfExp)) and not _same(a.test, b.test):
        out.append(("guard", "changes a condition"))
        return
    if isinstance(a, ast.If) and bool(a.orelse) != bool(b.orelse):
        out.append(("guard", "adds or removes an else branch"))
        return
    if isinstance(a, ast.Compare) and [type(o) for o in a.ops] != [type(o) for o in b.ops]:
        out.append(("guard", "changes a comparison operator"))
        return
    if isinstance(a, ast.BoolOp) and type(a.op) is not type(b.op) or (
            isinstance(a, ast.BoolOp) and len(a.values) != len(b.values)):
        out.append(("guard", "changes a boolean condition"))
        return
    if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and not _same(a.args, b.args):
        out.append(("param", "changes a function's parameters or defaults"))
        return
    if isinstance(a, ast.Call) and _same(a.func, b.func):
        ka = [k.arg for k in a.keywords]
        kb = [k.arg for k in b.keywords]
        if set(ka) != set(kb):
            shape = ("adds a keyword argument" if set(kb) > set(ka) else
                     "removes a keyword argument" if set(kb) < set(ka) else "renames or swaps a keyword argument")
            out.append(("param", shape))
            return
        if len(a.args) != len(b.args):
            out.append(("param", "adds or removes a positional argument"))
            return
        if not _same(ast.List(elts=a.args), ast.List(elts=b.args)) and all(_same(x, y) for x, y in zip(
                sorted(a.keywords, key=lambda k: str(k.arg)), sorted(b.keywords, key=lambda k: str(k.arg)))):
            for x, y in zip(a.args, b.args):
                _diff(x, y, out)
            return
        out.append(("param", "changes a keyword argument's value"))
        return
    for field in a._fields:
        va, vb = getattr(a, field, None), getattr(b, field, None)
        if isinstance(va, list) and isinstance(vb, list):
            if [ast.dump(x) if isinstance(x, ast.AST) else repr(x) for x in va] != \
                    [ast.dump(x) if isinstance(x, ast.AST) else repr(x) for x in vb]:
                _diff_lists(va, vb, out)
        elif isinstance(va, ast.AST) and isinstance(vb, ast.AST):
            _diff(va, vb, out)
        elif va != vb:
            out.append(("other", "changes a name or constant"))


FAMILY_ORDER = ("compat", "guard", "param", "other")


def classify(before_text, after_text, removed, added):
    """Returns (family, shape) where shape is a short phrase for the description."""
    changed = [l.split("#", 1)[0] for l in removed + added]
    if any(COMPAT.search(l) for l in changed):
        if any(re.search(r"version|_GREATER|_LESS", l, re.I) for l in changed):
            return "compat", "adds or changes a version check"
        if any(re.search(r"ImportError|ModuleNotFoundError|is_\w+_available|_AVAILABLE", l) for l in changed):
            return "compat", "adds or changes an optional-import shim"
        return "compat", "adds or changes an attribute-availability shim"
    a = _StripDocstrings().visit(ast.parse(before_text))
    b = _StripDocstrings().visit(ast.parse(after_text))
    found = []
    _diff(a, b, found)
    if not found:
        return "other", "changes code"
    for family in FAMILY_ORDER:
        shapes = [shape for fam, shape in found if fam == family]
        if shapes:
            return family, shapes[0]
    return found[0]


def enclosing_function(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            end = getattr(node, "end_lineno", node.lineno)
            if node.lineno <= line <= end and (best is None or node.lineno >= best[0]):
                best = (node.lineno, node)
    if best is None:
        return None
    # Qualify a method by its class.
    name = best[1].name
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and best[1] in node.body:
            return f"{node.name}.{name}"
    return name


def symptom_of(msg):
    m = SYMPTOM.search(msg)
    if not m:
        return None
    text = m.group(1)
    if m.group(2) and m.group(2).strip():
        text += ": " + m.group(2).strip()[:160]
    return text


def split_of(sha):
    return "test" if int(hashlib.sha256(sha.encode("ascii")).hexdigest()[:8], 16) % 5 < 2 else "dev"


class Blobs:
    """Reads `rev:path` blobs through one long-running `git cat-file --batch` (one process, not one per read)."""

    def __init__(self, gitdir):
        self.proc = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, rev, path):
        """The text of path at rev, or None when absent, missing from the mirror, or not UTF-8."""
        self.proc.stdin.write(f"{rev}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) != 3:  # "<name> missing" (also a blob the mirror lacks)
            return None
        data = self.proc.stdout.read(int(header[2]) + 1)[:-1]
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def mine_project(gitdir, project, max_lines):
    """All fixes of one project (before the cap), as dicts plus a 'time' key."""
    commits = list(read_log(gitdir))
    reverted = set()
    for _, _, _, msg, _ in commits:
        for m in REVERTS_SHA.finditer(msg):
            reverted.add(m.group(1))
    out = []
    seen = set()
    blobs = Blobs(gitdir)
    short = project.split("/")[1].replace("pytorch-lightning", "lightning").lower()
    for sha, parents, ctime, msg, files in reversed(commits):  # oldest first
        if len(parents) != 1:
            continue
        subject = msg.strip().split("\n", 1)[0]
        if REVERT.match(subject) or "This reverts commit" in msg:
            continue
        if any(sha.startswith(r) for r in reverted):
            continue
        if not message_says_fix(msg):
            continue
        path = pick_file(files)
        if path is None:
            continue
        try:
            hunks = git_hunks(gitdir, parents[0], sha, path)
        except subprocess.CalledProcessError:  # a blob the mirror lacks
            continue
        if not 1 <= sum(len(h[2]) + len(h[3]) for h in hunks) <= max_lines:
            continue
        before = blobs.read(parents[0], path)
        after = blobs.read(sha, path)
        if before is None or after is None:
            continue
        kb, ka = ast_key(before), ast_key(after)
        if kb is None or ka is None or kb == ka:
            continue
        doc_b, doc_a = docstring_lines(ast.parse(before)), docstring_lines(ast.parse(after))
        hunks = [h for h in hunks if is_code_hunk(h, doc_b, doc_a)]
        if not hunks:
            continue
        # The same change landed twice (a cherry-pick or re-land): keep the first only.
        key = (path, tuple((tuple(h[2]), tuple(h[3])) for h in hunks))
        if key in seen:
            continue
        seen.add(key)
        n = len(before.splitlines())
        lines = fault_lines(hunks, n, doc_b)
        removed = [l for h in hunks for l in h[2]]
        added = [l for h in hunks for l in h[3]]
        family, shape = classify(before, after, removed, added)
        func = enclosing_function(ast.parse(before), lines[0])
        where = f"in `{func}`" if func else "at module level"
        desc = (f"{family}: {shape} {where} of {path.rsplit('/', 1)[-1]} "
                f"(-{len(removed)}/+{len(added)} lines, {len(hunks)} hunk{'s' if len(hunks) > 1 else ''})")
        out.append({
            "id": f"{short}-{sha[:10]}",
            "repo": project,
            "fix_commit": sha,
            "parent_commit": parents[0],
            "file": path,
            "fault_lines": lines,
            "family": family,
            "description": desc,
            "symptom": symptom_of(msg),
            "split": split_of(sha),
            "time": ctime,
        })
    blobs.close()
    return out


def summary(path):
    """Markdown tables of counts per project, family and split (for the README)."""
    import collections
    with open(path) as fh:
        rows = [json.loads(line) for line in fh]
    families = list(FAMILY_ORDER)
    lines = ["| project | " + " | ".join(families) + " | dev | test | all |",
             "| --- |" + " ---: |" * (len(families) + 3)]
    by_repo = collections.defaultdict(list)
    for r in rows:
        by_repo[r["repo"]].append(r)
    for repo in sorted(by_repo) + ["all"]:
        rs = rows if repo == "all" else by_repo[repo]
        fam = collections.Counter(r["family"] for r in rs)
        spl = collections.Counter(r["split"] for r in rs)
        cells = [str(fam[f]) for f in families] + [str(spl["dev"]), str(spl["test"]), str(len(rs))]
        lines.append(f"| {repo} | " + " | ".join(cells) + " |")
    with_symptom = sum(r["symptom"] is not None for r in rows)
    lines.append("")
    lines.append(f"{with_symptom} of {len(rows)} fixes state a symptom.")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror-root", default="/work/.mirror")
    ap.add_argument("--cap", type=int, default=60, help="most fixes kept per project (0: no cap)")
    ap.add_argument("--max-lines", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "benchmarks", "realfix", "fixes.jsonl"))
    ap.add_argument("--project", action="append", help="OWNER/NAME (repeatable); default: the nine neighbours")
    ap.add_argument("--summary", metavar="FIXES_JSONL", help="print count tables of an existing file and exit")
    args = ap.parse_args(argv)
    if args.summary:
        print(summary(args.summary))
        return

    projects = args.project or DEFAULT_PROJECTS
    rows = []
    for project in projects:
        if FORBIDDEN.search(project):
            sys.exit(f"mine_realfix: {project} is excluded from mining (outside evaluation source)")
        gitdir = find_gitdir(args.mirror_root, project)
        if gitdir is None:
            sys.exit(f"mine_realfix: no git directory for {project} under {args.mirror_root} "
                     f"(expected OWNER+NAME/repo or OWNER/NAME)")
        fixes = mine_project(gitdir, project, args.max_lines)
        total = len(fixes)
        if args.cap:
            fixes = sorted(fixes, key=lambda f: hashlib.sha256(f["fix_commit"].encode()).hexdigest())[:args.cap]
        print(f"{project}: {total} fixes, kept {len(fixes)}", file=sys.stderr)
        rows.extend(fixes)
    rows.sort(key=lambda f: (f["repo"], f["time"], f["fix_commit"]))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fh:
        for r in rows:
            r = {k: v for k, v in r.items() if k != "time"}
            fh.write(json.dumps(r, sort_keys=False) + "\n")
    print(f"wrote {len(rows)} fixes to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
