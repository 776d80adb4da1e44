"""Find accelerators: built-in ones plus plugins under the ``accelplug.accelerators`` entry point group.

A plugin package declares e.g.

    [project.entry-points."accelplug.accelerators"]
    npu = "my_npu_plugin:NPUAccelerator"
"""
import importlib.metadata as metadata
import os
import sys

from accelplug.accelerator import CPUAccelerator, CUDAAccelerator

ENTRY_POINT_GROUP = "accelplug.accelerators"


def discover_accelerators():
    found = {"cpu": CPUAccelerator, "cuda": CUDAAccelerator}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found[ep.name] = ep.load()
    return found


def get_accelerator(name=None):
    """The accelerator named by ``name`` or $ACCELERATOR, else the first available one."""
    accelerators = discover_accelerators()
    name = name or os.environ.get("ACCELERATOR")
    if name is not None:
        if name not in accelerators:
            print("known accelerators: %s" % ", ".join(sorted(accelerators)), file=sys.stderr)
            raise ValueError("unknown accelerator %r" % (name,))
        return accelerators[name]()
    for preferred in ("cuda", *sorted(set(accelerators) - {"cuda", "cpu"}), "cpu"):
        accel = accelerators[preferred]()
        if accel.is_available():
            return accel
