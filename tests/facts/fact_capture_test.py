"""The runtime-facts capture (validators/facts/smallfix_fact_capture.py) on small real failing
tests: each test writes a tiny repository, runs pytest on it in a fresh interpreter with the
plugin loaded the way smallfix loads it (-p, its folder on PYTHONPATH), and reads the JSON.

    python3 -m pytest tests/facts/fact_capture_test.py   # with the project venv (torch) first
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "validators", "facts")
SECRET = "s3cr3t-value-of-the-environment"


def run_capture(tmp_path, files, test, *options, env=None, python=sys.executable):
    """Writes `files` under tmp_path, runs `test` with the plugin; (facts or None, pytest output)."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    out = tmp_path / "facts.json"
    environment = dict(os.environ, PYTHONPATH=os.path.abspath(PLUGIN_DIR), **(env or {}))
    done = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "smallfix_fact_capture", f"--smallfix-facts={out}", *options, test],
                          cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    facts = json.loads(out.read_text()) if out.exists() else None
    return facts, done.stdout + done.stderr, out


REDUCE = """
    def bucket_sizes(params):
        sizes = []
        for p in params:
            sizes.append(p.grad.numel())
        return sizes
"""


def test_none_grad_of_a_frozen_parameter_and_the_line_in_passing_tests(tmp_path):
    facts, output, _ = run_capture(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/reduce.py": REDUCE,
        "tests/test_reduce.py": """
            import torch
            from pkg.reduce import bucket_sizes

            def trained(*shapes, frozen=()):
                params = [torch.nn.Parameter(torch.ones(*s)) for s in shapes]
                for i in frozen:
                    params[i].requires_grad_(False)
                sum(p.sum() for p in params if p.requires_grad).backward()
                return params

            def test_all_trainable():
                assert bucket_sizes(trained((2, 3), (4,))) == [6, 4]

            def test_frozen():
                bucket_sizes(trained((2, 3), (4,), frozen=[1]))

            def test_many():
                assert len(bucket_sizes(trained(*[(2,)] * 10))) == 10
        """}, "tests", "--smallfix-facts-trace=pkg/reduce.py:5")
    assert "1 failed, 2 passed" in output, output
    assert facts["version"] == 1
    assert facts["test"] == "tests/test_reduce.py::test_frozen"
    assert facts["exception"] == {"type": "AttributeError",
                                  "message": "'NoneType' object has no attribute 'numel'",
                                  "attrs": {"name": "numel", "obj_type": "NoneType"}}
    assert [(f["file"], f["function"]) for f in facts["frames"]] == [
        ("tests/test_reduce.py", "test_frozen"), ("pkg/reduce.py", "bucket_sizes")]
    inner = facts["frames"][-1]
    assert inner["line"] == 5
    p = inner["locals"]["p"]
    assert (p["type"], p["module"], p["none"]) == ("Parameter", "torch.nn.parameter", False)
    assert (p["shape"], p["dtype"], p["device"], p["requires_grad"]) == ([4], "torch.float32", "cpu", False)
    assert "grad" in p["attrs_none"]
    assert inner["locals"]["sizes"]["len"] == 1 and inner["locals"]["sizes"]["repr"] == "[6]"
    assert facts["attribute_owner"] is None  # None lacks everything: no names to offer
    assert facts["versions"]["python"] == ".".join(map(str, sys.version_info[:3]))
    assert facts["versions"]["torch"].startswith("2.")
    # The traced line in the passing tests only, at most three times each.
    by_test = {}
    for hit in facts["passing"]:
        assert (hit["file"], hit["line"]) == ("pkg/reduce.py", 5)
        by_test.setdefault(hit["test"], []).append(hit["locals"])
    assert sorted(by_test) == ["tests/test_reduce.py::test_all_trainable", "tests/test_reduce.py::test_many"]
    assert len(by_test["tests/test_reduce.py::test_all_trainable"]) == 2
    assert len(by_test["tests/test_reduce.py::test_many"]) == 3
    assert all(hit["p"]["requires_grad"] and "grad" not in hit["p"]["attrs_none"]
               for hits in by_test.values() for hit in hits)


# The trace runs on sys.settrace before Python 3.12 and on sys.monitoring from 3.12 on: the
# same hits either way. Other interpreters with pytest installed may be named in
# SMALLFIX_TEST_PYTHONS (colon-separated) to check the other tracer; without one it is skipped.
OTHER_PYTHONS = [p for p in os.environ.get("SMALLFIX_TEST_PYTHONS", "").split(":") if p]


@pytest.mark.parametrize("python", [sys.executable] + OTHER_PYTHONS + ([] if OTHER_PYTHONS else [None]))
def test_trace_hits_the_line_in_passing_tests_only(tmp_path, python):
    if python is None:
        pytest.skip("no SMALLFIX_TEST_PYTHONS: only this interpreter's tracer is checked")
    facts, output, _ = run_capture(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/mod.py": """
            def norm(values, scale=None):
                total = 0
                for v in values:
                    total += v * (scale or 1)
                return total
        """,
        "test_m.py": """
            from pkg.mod import norm

            def test_a():
                assert norm([1, 2, 3, 4, 5]) == 15

            def test_b():
                assert norm([1] * 2, scale=2) == 4

            def test_c():
                norm([None])
        """}, "test_m.py", "--smallfix-facts-trace=pkg/mod.py:5", python=python)
    assert "1 failed, 2 passed" in output, output
    seen = [(hit["test"].split("::")[1], hit["locals"]["v"]["literal"], hit["locals"]["total"]["literal"])
            for hit in facts["passing"]]
    assert seen == [("test_a", "1", "0"), ("test_a", "2", "1"), ("test_a", "3", "3"),
                    ("test_b", "1", "0"), ("test_b", "1", "2")]
    assert facts["frames"][-1]["locals"]["v"]["none"]


def test_wrong_keyword_to_torch_distributed_gives_its_real_signature(tmp_path):
    facts, output, _ = run_capture(tmp_path, {
        "comm.py": """
            import torch.distributed as dist

            def average(tensor, world):
                dist.all_reduce(tensor, opp=dist.ReduceOp.SUM)
                return tensor / world
        """,
        "test_comm.py": """
            import torch
            from comm import average

            def test_average():
                average(torch.ones(3), 2)
        """}, "test_comm.py")
    assert "1 failed" in output, output
    assert facts["exception"]["type"] == "TypeError"
    callee = facts["callee"]
    assert callee["qualname"].startswith("torch.distributed.") and callee["qualname"].endswith(".all_reduce")
    assert callee["expression"] == "dist.all_reduce"
    names = [p["name"] for p in callee["parameters"]]
    assert names[:3] == ["tensor", "op", "group"] and "opp" not in names
    assert callee["parameters"][0] == {"name": "tensor", "kind": "POSITIONAL_OR_KEYWORD", "has_default": False}
    assert callee["parameters"][2]["default"] == "None"
    assert callee["signature"].startswith("(tensor, op=")
    assert facts["frames"][-1]["file"] == "comm.py" and facts["frames"][-1]["line"] == 5


def test_wrong_keyword_to_a_repo_method_resolves_through_self(tmp_path):
    facts, output, _ = run_capture(tmp_path, {
        "engine.py": """
            class Reducer:
                def reduce(self, values, *, bucket_size=4):
                    return sum(values)

            class Engine:
                def __init__(self):
                    self.reducer = Reducer()

                @property
                def exploding(self):
                    raise RuntimeError("a property the capture must not run")

                def step(self, values):
                    return self.reducer.reduce(values, bucket=2) + len(values)
        """,
        "test_engine.py": """
            from engine import Engine

            def test_step():
                assert Engine().step([1, 2]) == 5
        """}, "test_engine.py")
    assert "1 failed" in output, output
    callee = facts["callee"]
    assert callee["qualname"] == "engine.Reducer.reduce"
    assert callee["expression"] == "self.reducer.reduce"
    assert callee["signature"] == "(values, *, bucket_size=4)"  # bound: no self
    assert [(p["name"], p["kind"]) for p in callee["parameters"]] == [
        ("values", "POSITIONAL_OR_KEYWORD"), ("bucket_size", "KEYWORD_ONLY")]


def test_attribute_missing_from_a_module_lists_what_it_has(tmp_path):
    facts, output, _ = run_capture(tmp_path, {
        "test_amp.py": """
            import torch

            def test_scaler():
                scaler = torch.cuda.amp.GradScalerV2(enabled=False)
        """}, "test_amp.py")
    assert "1 failed" in output, output
    owner = facts["attribute_owner"]
    assert owner["type"] == "module" and owner["qualname"] == "torch.cuda.amp"
    assert "GradScaler" in owner["names"] and "autocast" in owner["names"]
    assert owner["names"] == sorted(owner["names"]) and owner["mro"] == []
    assert facts["exception"]["attrs"]["name"] == "GradScalerV2"


def test_a_module_that_fails_to_import_at_collection(tmp_path):
    facts, output, _ = run_capture(tmp_path, {
        "test_import.py": """
            import torch
            from torch.cuda.amp import GradScalerV2
        """}, "test_import.py")
    assert "1 error" in output, output
    assert facts["test"] == "test_import.py"
    assert facts["exception"]["type"] == "ImportError"  # not pytest's CollectError around it
    assert facts["exception"]["attrs"]["name"] == "torch.cuda.amp"
    assert facts["exception"]["attrs"]["import_name"] == "GradScalerV2"
    assert [(f["file"], f["line"], f["function"]) for f in facts["frames"]] == [("test_import.py", 3, "<module>")]
    assert facts["attribute_owner"]["qualname"] == "torch.cuda.amp"
    assert "GradScaler" in facts["attribute_owner"]["names"]


def test_a_missing_submodule_lists_what_its_package_has(tmp_path):
    facts, _, _ = run_capture(tmp_path, {
        "test_six.py": """
            def test_inf():
                from torch._six import inf
        """}, "test_six.py")
    assert facts["exception"]["type"] == "ModuleNotFoundError"
    assert facts["exception"]["attrs"]["name"] == "torch._six"
    owner = facts["attribute_owner"]
    assert (owner["type"], owner["qualname"]) == ("module", "torch")
    assert "inf" in owner["names"]  # what the code wanted is in torch itself


def test_attribute_missing_from_an_instance_lists_its_class_and_mro(tmp_path):
    facts, _, _ = run_capture(tmp_path, {
        "test_obj.py": """
            class Base:
                def all_gather(self):
                    pass

            class Group(Base):
                def __init__(self):
                    self.size = 2

            def test_group():
                Group().all_gather_into_tensor()
        """}, "test_obj.py")
    owner = facts["attribute_owner"]
    assert (owner["type"], owner["qualname"]) == ("instance", "test_obj.Group")
    assert owner["mro"] == ["test_obj.Group", "test_obj.Base", "object"]
    assert "all_gather" in owner["names"] and "size" in owner["names"]
    assert facts["exception"]["attrs"]["obj_type"] == "test_obj.Group"


HOSTILE = """
    import os

    class Hostile:
        def __repr__(self):
            raise RuntimeError("repr of a broken object")
        def __getattr__(self, name):
            raise RuntimeError("getattr of a broken object")
        def __len__(self):
            raise RuntimeError("len of a broken object")
        def __eq__(self, other):
            raise RuntimeError("eq of a broken object")
        __hash__ = None

    def test_env_and_hostile():
        token = os.environ["SMALLFIX_TEST_SECRET"]
        value = token
        env = os.environ
        copy = dict(os.environ)
        nested = {"auth": token, "rank": 0}
        api_key = "literal-but-named-like-a-secret"
        broken = Hostile()
        items = [broken, 3]
        count = 7
        assert count == 8
"""


def test_environment_never_written_and_a_raising_repr_does_not_break_capture(tmp_path):
    facts, output, out = run_capture(tmp_path, {"test_env.py": HOSTILE}, "test_env.py",
                                     env={"SMALLFIX_TEST_SECRET": SECRET})
    assert "1 failed" in output and "AssertionError" in output, output
    text = out.read_text()
    assert SECRET not in text and "literal-but-named" not in text
    local = facts["frames"][-1]["locals"]
    assert "env" not in local and "copy" not in local
    assert "api_key" not in local and "token" not in local  # names that look secret
    assert local["value"]["repr"] == "<from the environment>" and local["value"]["literal"] is None
    assert "<from the environment>" in local["nested"]["repr"]
    assert local["broken"]["type"] == "Hostile" and local["broken"]["len"] is None
    assert "Hostile instance" in local["broken"]["repr"] or "repr failed" in local["broken"]["repr"]
    assert local["count"]["literal"] == "7"
    assert local["items"]["len"] == 2
    assert "SMALLFIX_TEST_SECRET" not in text  # not even the variable's name from a copy


def test_size_cap_drops_reprs_first_then_outer_frames(tmp_path):
    facts, output, out = run_capture(tmp_path, {
        "test_big.py": """
            def inner(words):
                many = {f"name{i}": "x" * 100 for i in range(50)}
                raise ValueError("too big")

            def test_big():
                words = ["word" * 30 for _ in range(200)]
                more = [1] * 10
                inner(words)
        """}, "test_big.py", "--smallfix-facts-max-bytes=1200")
    assert "1 failed" in output, output
    assert len(out.read_bytes()) <= 1200
    assert facts["exception"]["type"] == "ValueError"
    assert [f["function"] for f in facts["frames"]] == ["test_big", "inner"]
    assert facts["frames"][-1]["locals"]["many"]["len"] == 50
    assert all(v["repr"] == "" for f in facts["frames"] for v in f["locals"].values())
    # Tighter: the outer frame's locals go, the raising frame's stay.
    tighter, _, out = run_capture(tmp_path, {}, "test_big.py", "--smallfix-facts-max-bytes=800")
    assert len(out.read_bytes()) <= 800
    assert tighter["frames"][0]["locals"] == {} and "many" in tighter["frames"][1]["locals"]
    # Without the cap the reprs stay.
    uncapped, _, out = run_capture(tmp_path, {}, "test_big.py")
    assert len(out.read_bytes()) > 1200
    assert uncapped["frames"][0]["locals"]["more"]["repr"] == "[1, 1, 1, 1, 1, 1, ...]"


def test_without_a_path_nothing_is_written_and_torch_is_not_imported(tmp_path):
    files = {"test_plain.py": """
        import sys

        def test_plain():
            assert "torch" not in sys.modules
            d = {"a": None}
            d["b"]
    """}
    facts, output, _ = run_capture(tmp_path, files, "test_plain.py")
    assert "KeyError" in output and "1 failed" in output, output
    assert facts["exception"]["attrs"] == {"key": "'b'"}
    assert "torch" not in facts["versions"]
    environment = dict(os.environ, PYTHONPATH=os.path.abspath(PLUGIN_DIR))
    environment.pop("SMALLFIX_FACTS", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "smallfix_fact_capture", "test_plain.py"], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert "1 failed" in done.stdout
    assert sorted(os.listdir(tmp_path)) == ["facts.json", "test_plain.py"]  # only the first run's


def test_a_bad_trace_line_is_a_usage_error(tmp_path):
    _, output, out = run_capture(tmp_path, {"test_ok.py": "def test_ok():\n    pass\n"}, "test_ok.py",
                                 "--smallfix-facts-trace=nowhere")
    assert "--smallfix-facts-trace wants FILE:LINE, not 'nowhere'" in output
    assert not out.exists()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
