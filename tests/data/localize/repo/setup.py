"""Installs fastzero; FASTZERO_BUILD_OPS=1 also builds the fused kernels."""
import os

from setuptools import find_packages, setup

ops = []
if os.environ.get("FASTZERO_BUILD_OPS") == "1":
    from fastzero.ops.builder import build_ops

    ops = build_ops(["fused_adam", "fused_layernorm"])

setup(
    name="fastzero",
    version="0.4.2",
    packages=find_packages(exclude=["tests", "examples"]),
    description="a small ZeRO-style parallel training library",
)
