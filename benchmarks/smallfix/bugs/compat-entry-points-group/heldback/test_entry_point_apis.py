"""Plugin discovery must work with the Python 3.8/3.9 and the 3.10+ entry_points API."""
import importlib.metadata as metadata
import sys

import pytest

from accelplug.registry import discover_accelerators, get_accelerator

PLUGIN = metadata.EntryPoint(name="fake_npu", value="accelplug.testing:FakeNPUAccelerator",
                             group="accelplug.accelerators")
OTHER = metadata.EntryPoint(name="unrelated", value="os:getcwd", group="console_scripts")


def entry_points_py39():
    return {"accelplug.accelerators": (PLUGIN,), "console_scripts": (OTHER,)}


def entry_points_py310(**params):
    if not params:
        raise AssertionError("the 3.12 API no longer returns a dict of groups")
    return metadata.EntryPoints((PLUGIN, OTHER)).select(**params)


@pytest.fixture(params=["3.9", "3.10+"])
def python_api(request, monkeypatch):
    if request.param == "3.9":
        monkeypatch.setattr(metadata, "entry_points", entry_points_py39)
        monkeypatch.setattr(sys, "version_info", (3, 9, 18, "final", 0))
    else:
        monkeypatch.setattr(metadata, "entry_points", entry_points_py310)
    return request.param


def test_discovery(python_api):
    found = discover_accelerators()
    assert set(found) == {"cpu", "cuda", "fake_npu"}


def test_env_selection(python_api, monkeypatch):
    monkeypatch.setenv("ACCELERATOR", "fake_npu")
    assert get_accelerator().name == "fake_npu"


def test_no_plugin_group(monkeypatch):
    monkeypatch.setattr(metadata, "entry_points", lambda: {"console_scripts": (OTHER,)})
    monkeypatch.setattr(sys, "version_info", (3, 8, 10, "final", 0))
    assert set(discover_accelerators()) == {"cpu", "cuda"}
