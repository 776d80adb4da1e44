"""scripts/mine_realfix.py on a git history built here, with known fix and non-fix commits.

Run: python3 tests/realfix/mine_realfix_test.py  (needs git; no network, no mirrors)
"""

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "mine_realfix.py")

spec = importlib.util.spec_from_file_location("mine_realfix", SCRIPT)
mine_realfix = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mine_realfix)

BASE = """\
import torch.distributed as dist


def world_info(group):
    rank = group.rank()
    size = group.size()
    return rank, size


def setup(backend):
    dist.init_process_group(backend, timeout=10)
    return dist.get_rank()


def shard(items, rank, size):
    step = len(items) // size
    start = rank * step
    end = start + step
    out = items[start:end]
    total = sum(out)
    count = len(out)
    mean = total / count
    return out, mean
"""


class History:
    """A work tree whose commits get increasing, fixed dates (so the output order is known)."""

    def __init__(self, path):
        self.path = path
        self.t = 1_600_000_000
        self.git("init", "-q", "-b", "main")

    def git(self, *args):
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
                   GIT_AUTHOR_DATE=f"{self.t} +0000", GIT_COMMITTER_DATE=f"{self.t} +0000")
        return subprocess.run(["git", "-C", self.path, *args], check=True, capture_output=True,
                              text=True, env=env).stdout.strip()

    def write(self, rel, text):
        full = os.path.join(self.path, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as fh:
            fh.write(text)

    def read(self, rel):
        with open(os.path.join(self.path, rel)) as fh:
            return fh.read()

    def edit(self, rel, old, new):
        text = self.read(rel)
        assert old in text, old
        self.write(rel, text.replace(old, new, 1))

    def commit(self, message):
        self.t += 60
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")


class MineRealfixTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        work = os.path.join(cls.tmp.name, "work")
        os.makedirs(work)
        h = History(work)
        h.write("pkg/dist.py", BASE)
        h.write("tests/test_dist.py", "def test_x():\n    assert True\n")
        h.write("README.md", "demo\n")
        cls.initial = h.commit("Initial import")

        # A guard fix, with a test and a doc change beside it: selected.
        h.edit("pkg/dist.py", "def world_info(group):\n",
               "def world_info(group):\n    if group is None:\n        return 0, 1\n")
        h.write("tests/test_dist.py", "def test_x():\n    assert True\n\n\ndef test_none():\n    pass\n")
        h.write("README.md", "demo\nworld_info accepts None\n")
        cls.guard = h.commit("Fix crash when group is None\n\n"
                             "AttributeError: 'NoneType' object has no attribute 'rank'\n")

        # A keyword argument's value: selected, param.
        h.edit("pkg/dist.py", "timeout=10", "timeout=1800")
        cls.param = h.commit("fix too short process-group timeout (#12)")

        # A fix that is later reverted: neither is selected.
        h.edit("pkg/dist.py", "start = rank * step", "start = rank * step + 1")
        cls.reverted = h.commit("Fix shard start offset")
        h.edit("pkg/dist.py", "start = rank * step + 1", "start = rank * step")
        cls.revert = h.commit(f'Revert "Fix shard start offset"\n\nThis reverts commit {cls.reverted}.\n')

        # A merge whose branch commit is not described as a fix: neither is selected.
        h.git("checkout", "-q", "-b", "side")
        h.edit("pkg/dist.py", "    out = items[start:end]\n", "    out = list(items[start:end])\n")
        cls.side = h.commit("Use a list")
        h.git("checkout", "-q", "main")
        h.write("NOTES.md", "notes\n")
        h.commit("Add notes")
        h.t += 60
        h.git("merge", "-q", "--no-ff", "side", "-m", "Merge branch 'side': fix shard bug")
        cls.merge = h.git("rev-parse", "HEAD")

        # Formatting and comments only (the AST is unchanged): not selected.
        h.edit("pkg/dist.py", "    end = start + step\n", "    end = (start + step)  # exclusive\n")
        cls.formatting = h.commit("Fix end index bug")

        # A change of tests only: not selected.
        h.write("tests/test_dist.py", "def test_x():\n    assert 1 == 1\n")
        cls.test_only = h.commit("Fix assertion in checks")

        # Twelve changed lines (6 removed, 6 added): not selected.
        h.edit("pkg/dist.py",
               "    step = len(items) // size\n    start = rank * step\n    end = (start + step)  # exclusive\n"
               "    out = list(items[start:end])\n    total = sum(out)\n    count = len(out)\n",
               "    step = -(-len(items) // size)\n    start = min(rank * step, len(items))\n"
               "    end = min(start + step, len(items))\n    out = list(items[start:end])[:]\n"
               "    total = float(sum(out))\n    count = max(len(out), 1)\n")
        cls.twelve = h.commit("Fix uneven shards")

        # A small change whose message names no bug: not selected.
        h.edit("pkg/dist.py", "    return out, mean\n", "    return out, mean, count\n")
        cls.feature = h.commit("Add count to shard output")

        # A comparison operator in an inserted-free condition change: selected, guard.
        h.edit("pkg/dist.py", "    if group is None:\n", "    if group is None or size == 0:\n")
        h.edit("pkg/dist.py", "    rank = group.rank()\n    size = group.size()\n",
               "    size = group.size() if group is not None else 0\n    rank = group.rank() if size else 0\n")
        cls.ignored_big = h.commit("Update world_info")  # no fix word: not selected either

        # A version-check shim: selected, compat.
        h.edit("pkg/dist.py", "import torch.distributed as dist\n",
               "import torch\nimport torch.distributed as dist\n\nNEW_TORCH = torch.__version__ >= '2'\n")
        cls.compat = h.commit("Fix import error on old torch")

        # The mirror layout: OWNER+NAME/repo, a bare clone.
        cls.root = os.path.join(cls.tmp.name, "mirrors")
        os.makedirs(os.path.join(cls.root, "acme+demo"))
        subprocess.run(["git", "clone", "-q", "--bare", work, os.path.join(cls.root, "acme+demo", "repo")],
                       check=True)
        cls.out = os.path.join(cls.tmp.name, "fixes.jsonl")
        mine_realfix.main(["--mirror-root", cls.root, "--project", "acme/demo", "--out", cls.out, "--cap", "0"])
        with open(cls.out) as fh:
            cls.rows = [json.loads(line) for line in fh]
        cls.by_sha = {r["fix_commit"]: r for r in cls.rows}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_selects_exactly_the_fixes_in_date_order(self):
        self.assertEqual([r["fix_commit"] for r in self.rows], [self.guard, self.param, self.compat])

    def test_excluded_commits(self):
        for sha in (self.reverted, self.revert, self.side, self.merge, self.formatting, self.test_only,
                    self.twelve, self.feature, self.ignored_big, self.initial):
            self.assertNotIn(sha, self.by_sha)

    def test_fields_are_exactly_the_runner_contract(self):
        for r in self.rows:
            self.assertEqual(list(r), ["id", "repo", "fix_commit", "parent_commit", "file", "fault_lines",
                                       "family", "description", "symptom", "split"])
            self.assertEqual(r["repo"], "acme/demo")
            self.assertEqual(r["file"], "pkg/dist.py")
            self.assertEqual(r["id"], "demo-" + r["fix_commit"][:10])
            self.assertEqual(len(r["parent_commit"]), 40)
            want = "test" if int(hashlib.sha256(r["fix_commit"].encode()).hexdigest()[:8], 16) % 5 < 2 else "dev"
            self.assertEqual(r["split"], want)

    def test_guard_fix(self):
        r = self.by_sha[self.guard]
        self.assertEqual(r["parent_commit"], self.initial)
        # Pure insertion after line 4 ("def world_info(group):"): the fault line is the next one.
        self.assertEqual(r["fault_lines"], [5])
        self.assertEqual(r["family"], "guard")
        self.assertEqual(r["symptom"], "AttributeError: 'NoneType' object has no attribute 'rank'")
        self.assertIn("world_info", r["description"])

    def test_param_fix(self):
        r = self.by_sha[self.param]
        # The init_process_group line: line 11 of BASE, moved down by the guard's two lines.
        self.assertEqual(r["fault_lines"], [13])
        self.assertEqual(r["family"], "param")
        self.assertIsNone(r["symptom"])

    def test_compat_fix(self):
        r = self.by_sha[self.compat]
        # Two insertions: before line 1, and after the blank line 2 (so the fault line is 3).
        self.assertEqual(r["fault_lines"], [1, 3])
        self.assertEqual(r["family"], "compat")

    def test_forbidden_project_is_refused(self):
        with self.assertRaises(SystemExit) as cm:
            mine_realfix.main(["--mirror-root", self.root, "--project", "someone/DeepSpeed", "--out", self.out])
        self.assertIn("excluded", str(cm.exception))

    def test_missing_mirror_names_the_project(self):
        with self.assertRaises(SystemExit) as cm:
            mine_realfix.main(["--mirror-root", self.root, "--project", "acme/absent", "--out", self.out])
        self.assertIn("acme/absent", str(cm.exception))


class FamilyRulesTest(unittest.TestCase):
    def family(self, before, after):
        return mine_realfix.classify(before, after, before.splitlines(), after.splitlines())[0]

    def test_rules(self):
        self.assertEqual(self.family("x = f(a)\n", "x = f(a, b=1)\n"), "param")
        self.assertEqual(self.family("def f(a, b=1):\n    pass\n", "def f(a, b=2):\n    pass\n"), "param")
        self.assertEqual(self.family("if a < b:\n    pass\n", "if a <= b:\n    pass\n"), "guard")
        self.assertEqual(self.family("y = 1\n", "if x:\n    y = 1\n"), "guard")
        self.assertEqual(self.family("y = 1\n", "y = 2\n"), "other")
        self.assertEqual(self.family("y = f.a\n", "y = getattr(f, 'a', None)\n"), "compat")


class FaultLinesTest(unittest.TestCase):
    def test_comment_lines_are_not_fault_lines(self):
        # Hunk (old start, old count, removed, added, new start, new count).
        hunks = [(10, 2, ["    # old note", "    x = f(a)"], ["    x = f(a, b)"], 10, 1)]
        self.assertEqual(mine_realfix.fault_lines(hunks, 30), [11])

    def test_insertion_and_comment_only_removal_point_after(self):
        hunks = [(4, 0, [], ["    if g is None:", "        return"], 5, 2),
                 (20, 1, ["    # todo"], ["    y = 0"], 22, 1)]
        self.assertEqual(mine_realfix.fault_lines(hunks, 30), [5, 21])

    def test_docstring_lines_are_left_out(self):
        hunks = [(2, 2, ["    text", "    y = 1"], ["    y = 2"], 2, 1)]
        self.assertEqual(mine_realfix.fault_lines(hunks, 30, doc_before={1, 2}), [3])

    def test_insertion_at_end_is_clamped(self):
        self.assertEqual(mine_realfix.fault_lines([(30, 0, [], ["z = 1"], 31, 1)], 30), [30])


if __name__ == "__main__":
    unittest.main()
