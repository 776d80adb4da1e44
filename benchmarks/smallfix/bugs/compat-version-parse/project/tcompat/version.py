"""Compare the installed torch release with a minimum version."""
import torch


def _parse(version_string):
    return tuple(int(part) for part in version_string.split(".")[:3])


def torch_version():
    return _parse(torch.__version__)


def torch_version_at_least(min_version):
    """True when the installed torch is ``min_version`` or newer, e.g. ``"2.0"``."""
    return torch_version() >= _parse(min_version)
