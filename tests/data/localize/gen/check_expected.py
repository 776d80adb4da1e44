"""Checks expected.yaml against cases/ and repo/: run with /usr/bin/python3 (needs PyYAML)."""
import ast
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
REPO = ROOT / "repo"
CLASSES = {"none-attribute", "none-subscript", "none-iterate", "none-call", "unexpected-kwarg",
           "missing-argument", "multiple-values", "module-missing-attribute", "import-error",
           "process-group-not-initialized", "shape-mismatch", "dtype-device-mismatch", "key-error",
           "index-error", "assertion", "zero-division", "timeout-or-hang", "out-of-memory", "other"}
TEST_FILE = re.compile(r"(^|/)(tests/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")


def enclosing(path, line):
    text = (REPO / path).read_text()
    try:
        tree = ast.parse(text)
    except SyntaxError:   # the SyntaxError case: fall back to indentation
        sys.path.insert(0, str(Path(__file__).parent))
        from common import enclosing_def
        return enclosing_def(path, line)
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.lineno <= line <= node.end_lineno and (best is None or node.lineno > best.lineno):
                best = node
    return best.name if best else "<module>"


def main():
    entries = yaml.safe_load((ROOT / "expected.yaml").read_text())
    errors = []
    seen = set()
    for e in entries:
        name = e["case"]
        seen.add(name)
        case = ROOT / name
        where = f"{name}:"
        if not case.exists():
            errors.append(f"{where} case file missing")
            continue
        text = case.read_bytes().decode()
        if e["kind"] not in ("log", "issue", "junit"):
            errors.append(f"{where} bad kind {e['kind']}")
        if e["class"] not in CLASSES:
            errors.append(f"{where} bad class {e['class']}")
        src = REPO / e["file"]
        if not src.exists():
            errors.append(f"{where} {e['file']} missing")
            continue
        if TEST_FILE.search(e["file"]):
            errors.append(f"{where} blames a test file")
        n = len(src.read_text().split("\n"))
        if not 1 <= e["line"] <= n:
            errors.append(f"{where} line {e['line']} out of range")
        elif enclosing(e["file"], e["line"]) != e["function"]:
            errors.append(f"{where} line {e['line']} is in {enclosing(e['file'], e['line'])}, "
                          f"not {e['function']}")
        if (REPO / e["file"]).read_text().split("\n")[e["line"] - 1].strip() == "":
            errors.append(f"{where} line {e['line']} is blank")
        if e["exception"] and e["exception"] not in text:
            errors.append(f"{where} exception {e['exception']} not in the case text")
        base = Path(e["file"]).name
        plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
        pat = re.escape(base) + r'(", line |:| line |", line=)' + str(e["line"]) + r"\b"
        if not re.search(pat, plain):
            errors.append(f"{where} no reference to {base} line {e['line']} in the case text")
    for f in sorted((ROOT / "cases").iterdir()):
        if f"cases/{f.name}" not in seen:
            errors.append(f"cases/{f.name}: no expected.yaml entry")
    for e in errors:
        print("FAIL", e)
    print(f"{len(entries)} entries, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
