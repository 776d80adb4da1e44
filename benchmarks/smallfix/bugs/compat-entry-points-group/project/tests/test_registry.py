import pytest

from accelplug.accelerator import CPUAccelerator
from accelplug.registry import get_accelerator


def test_cpu_accelerator():
    accel = CPUAccelerator()
    assert accel.is_available() and accel.communication_backend == "gloo"


def test_plugin_accelerator_by_name():
    accel = get_accelerator("fake_npu")
    assert accel.name == "fake_npu"


def test_unknown_accelerator(monkeypatch):
    monkeypatch.delenv("ACCELERATOR", raising=False)
    with pytest.raises(ValueError):
        get_accelerator("tpu")
