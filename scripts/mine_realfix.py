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
  3. The message says it fixes a bug: the subject matches FIX_WORDS (fix, fixes, fixed, bug,
     bugfix, hotfix, error, crash, broken, wrong, incorrect, regression, ...), or the message has
     "fixes/closes/resolves #N" or an issue URL. Subjects that name only docs, typos, lint,
     formatting, typing, CI, tests or a release (SKIP_WORDS) are dropped.
  4. Exactly one changed Python file is not a test (a test is a path with a `test`/`tests`
     directory, a `test_*.py` / `*_test.py` name, or `conftest.py`). Other changed files may only
     be tests and docs (.md, .rst, .txt, or anything under docs/). The file is not a setup or
     version file, not under docs/, and exists in the parent (not added, deleted or renamed).
  5. That file's change is at most --max-lines changed lines, counted as added + removed
     lines (git numstat), and at least one.
  6. Both sides parse with Python's `ast` module, and their ASTs differ after removing
     docstrings (so whitespace, comment and docstring-only changes are dropped).
  7. At most --cap fixes per project, chosen by the lowest sha256 of the fix commit (a fixed,
     content-independent sample), so no project dominates.

Fault lines: the 1-based lines of the PARENT file that the fix removes or replaces (zero-context
diff hunks, `git diff -U0`); for a hunk that only inserts, the parent line right after the
insertion point (clamped to the file's last line).

Family rules (first that holds, in this order), computed from the removed and added lines:
  compat: a changed line mentions a version check (`version`, `__version__`, `packaging`,
          `LooseVersion`, `is_*_available`, `_TORCH_GREATER_EQUAL`-style flags), `hasattr(` /
          `getattr(` / `ImportError` / `ModuleNotFoundError` / `AttributeError` shims.
  guard:  an added or removed line is an `if`/`elif`/`while`/`assert`/conditional expression, or
          the removed and added lines differ in a comparison operator (`==`, `!=`, `<`, `<=`,
          `>`, `>=`, `is`, `is not`, `in`, `not in`), in `and`/`or`/`not`, or in `None`, or an
          added line is `return`/`raise`/`continue`/`break` inside a new block.
  param:  a changed line's difference is a keyword argument (`name=value`) inside a call or a
          parameter list, or a `def` line's parameters change.
  other:  everything else.

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
import tokenize
import io

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

FIX_WORDS = re.compile(
    r"\b(fix(es|ed|ing)?|bug(s|fix)?|hotfix|errors?|crash(es|ed|ing)?|broken|wrong|incorrect|"
    r"regression|fail(s|ed|ing|ure)?|exception|mistake|issue)\b", re.I)
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
    """Yields (sha, parents, time, message, [(added, removed, path)]) for every commit from HEAD."""
    # --name-only reads trees only; line counts need blobs, some of which a mirror may lack, so
    # they are counted later, per candidate (see numstat()).
    raw = git(gitdir, "log", "--no-renames", "--name-only", "--format=%x1e%H%x1f%P%x1f%ct%x1f%B%x1f", "HEAD")
    for rec in raw.decode("utf-8", "replace").split("\x1e")[1:]:
        sha, parents, ctime, msg, stat = rec.split("\x1f", 4)
        files = [p for p in stat.strip().splitlines() if p]
        yield sha, parents.split(), int(ctime), msg, files


def numstat(gitdir, parent, sha, path):
    """(added, removed) lines of one file, or None when binary or a blob is missing."""
    try:
        out = git(gitdir, "diff", "--no-renames", "--numstat", parent, sha, "--", path).decode()
    except subprocess.CalledProcessError:
        return None
    cols = out.strip().split("\t")
    if len(cols) != 3 or cols[0] == "-":
        return None
    return int(cols[0]), int(cols[1])


def message_says_fix(msg):
    subject = msg.strip().split("\n", 1)[0]
    if ISSUE_REF.search(msg):
        return True
    if not FIX_WORDS.search(subject):
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


def diff_hunks(before, after):
    """Zero-context hunks: list of (old_start, old_count, removed_lines, added_lines)."""
    import difflib
    a = before.splitlines()
    b = after.splitlines()
    hunks = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        hunks.append((i1 + 1, i2 - i1, a[i1:i2], b[j1:j2]))
    return hunks


def git_hunks(gitdir, parent, fix, path):
    """Hunks as git computes them (zero context), matching what the fix commit shows."""
    out = git(gitdir, "diff", "-U0", "--no-color", "--no-ext-diff", parent, fix, "--", path).decode("utf-8", "replace")
    hunks = []
    cur = None
    for line in out.splitlines():
        m = HUNK.match(line)
        if m:
            cur = [int(m.group(1)), 1 if m.group(2) is None else int(m.group(2)), [], []]
            hunks.append(cur)
        elif cur is not None and line.startswith("-") and not line.startswith("---"):
            cur[2].append(line[1:])
        elif cur is not None and line.startswith("+") and not line.startswith("+++"):
            cur[3].append(line[1:])
    return [tuple(h) for h in hunks]


def fault_lines(hunks, n_parent_lines):
    lines = []
    for start, count, _, _ in hunks:
        if count > 0:
            lines.extend(range(start, start + count))
        else:
            # git's -U0 header for an insertion names the line after which text is inserted.
            lines.append(min(start + 1, max(n_parent_lines, 1)))
    return sorted(set(lines))


def tokens(line):
    """Significant tokens of one line (comments and whitespace dropped); tolerant of partial code."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                            tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            out.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        out = re.findall(r"\w+|[^\w\s]+", line.split("#", 1)[0])
    return out


COMPAT = re.compile(r"version|packaging|LooseVersion|is_\w+_available|_GREATER|_LESS|_AVAILABLE|\bhasattr\(|"
                    r"\bgetattr\(|ImportError|ModuleNotFoundError|AttributeError")
CONDITION_START = re.compile(r"^\s*(if|elif|while|assert)\b")
COMPARE_TOKENS = {"==", "!=", "<", "<=", ">", ">=", "is", "in", "not", "and", "or", "None"}
KWARG = re.compile(r"(?<![=!<>])\b\w+\s*=(?!=)")


def _diff_tokens(removed, added):
    rt = [t for line in removed for t in tokens(line)]
    at = [t for line in added for t in tokens(line)]
    import collections
    rc, ac = collections.Counter(rt), collections.Counter(at)
    return rc - ac, ac - rc


def classify(removed, added):
    """Returns (family, shape) where shape is a short phrase for the description."""
    changed = [l for l in removed + added if l.strip() and not l.strip().startswith("#")]
    if any(COMPAT.search(l) for l in changed):
        if any("version" in l.lower() or "_GREATER" in l or "_LESS" in l for l in changed):
            return "compat", "version check"
        if any("ImportError" in l or "ModuleNotFoundError" in l or "is_" in l and "_available" in l for l in changed):
            return "compat", "optional-import shim"
        return "compat", "attribute-availability shim"
    gone, new = _diff_tokens(removed, added)
    if any(CONDITION_START.match(l) for l in added):
        kind = "assert" if any(re.match(r"^\s*assert\b", l) for l in added) else "condition"
        if not removed or not any(CONDITION_START.match(l) for l in removed):
            return "guard", f"adds a {kind}"
        return "guard", f"changes a {kind}"
    if any(CONDITION_START.match(l) for l in removed):
        return "guard", "removes or rewrites a condition"
    if set(gone) & COMPARE_TOKENS or set(new) & COMPARE_TOKENS:
        return "guard", "changes a comparison or None check"
    if any(" if " in l and " else " in l for l in added):
        return "guard", "adds a conditional expression"
    if any(re.match(r"^\s*def\b", l) for l in removed + added):
        return "param", "changes a function's parameters"
    rk = {m.group(0).replace(" ", "") for l in removed for m in KWARG.finditer(l)}
    ak = {m.group(0).replace(" ", "") for l in added for m in KWARG.finditer(l)}
    in_call = any("(" in l or l.strip().endswith(",") or l.strip().startswith(")") for l in removed + added)
    if in_call and (rk != ak or (rk and "=" in "".join(gone) + "".join(new))):
        if ak - rk and not rk - ak:
            return "param", "adds a keyword argument"
        if rk - ak and not ak - rk:
            return "param", "removes a keyword argument"
        return "param", "changes a keyword argument"
    if in_call and rk and rk == ak and any(t not in ("(", ")", ",") for t in list(gone) + list(new)):
        if all(KWARG.search(l) for l in removed + added if l.strip()):
            return "param", "changes a keyword argument's value"
    if not removed:
        return "other", "inserts statements"
    if not added:
        return "other", "deletes statements"
    if any(re.match(r"^\s*(import|from)\b", l) for l in removed + added):
        return "other", "changes an import"
    if any(re.match(r"^\s*return\b", l) for l in added):
        return "other", "changes a return value"
    if any(re.match(r"^\s*[\w.\[\]]+\s*[-+*/]?=(?!=)", l) for l in added):
        return "other", "changes an assignment"
    return "other", "changes an expression"


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


def show(gitdir, rev, path):
    try:
        return git(gitdir, "show", f"{rev}:{path}").decode("utf-8")
    except (subprocess.CalledProcessError, UnicodeDecodeError):
        return None


def mine_project(gitdir, project, max_lines):
    """All fixes of one project (before the cap), as dicts plus a 'time' key."""
    commits = list(read_log(gitdir))
    reverted = set()
    for _, _, _, msg, _ in commits:
        for m in REVERTS_SHA.finditer(msg):
            reverted.add(m.group(1))
    out = []
    short = project.split("/")[1].replace("pytorch-lightning", "lightning").lower()
    for sha, parents, ctime, msg, files in commits:
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
        counts = numstat(gitdir, parents[0], sha, path)
        if counts is None or not 1 <= sum(counts) <= max_lines:
            continue
        before = show(gitdir, parents[0], path)
        after = show(gitdir, sha, path)
        if before is None or after is None:
            continue
        kb, ka = ast_key(before), ast_key(after)
        if kb is None or ka is None or kb == ka:
            continue
        hunks = git_hunks(gitdir, parents[0], sha, path)
        if not hunks:
            continue
        n = len(before.splitlines())
        lines = fault_lines(hunks, n)
        removed = [l for h in hunks for l in h[2]]
        added = [l for h in hunks for l in h[3]]
        family, shape = classify(removed, added)
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
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror-root", default="/work/.mirror")
    ap.add_argument("--cap", type=int, default=60, help="most fixes kept per project (0: no cap)")
    ap.add_argument("--max-lines", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "benchmarks", "realfix", "fixes.jsonl"))
    ap.add_argument("--project", action="append", help="OWNER/NAME (repeatable); default: the nine neighbours")
    args = ap.parse_args(argv)

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
