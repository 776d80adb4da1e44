"""Our CI still covers Python 3.9 (the oldest supported Python).

There, ``importlib.metadata.entry_points()`` takes no arguments and returns a
dict of group name -> entry points. This fixture gives the running Python that
behaviour and registers the fake plugin from ``accelplug.testing``.
"""
import importlib.metadata as metadata
import sys

import pytest

FAKE_PLUGIN = metadata.EntryPoint(name="fake_npu", value="accelplug.testing:FakeNPUAccelerator",
                                  group="accelplug.accelerators")


def entry_points():
    return {"accelplug.accelerators": (FAKE_PLUGIN,), "console_scripts": ()}


@pytest.fixture(autouse=True)
def python_3_9(monkeypatch):
    monkeypatch.setattr(metadata, "entry_points", entry_points)
    monkeypatch.setattr(sys, "version_info", (3, 9, 18, "final", 0))
