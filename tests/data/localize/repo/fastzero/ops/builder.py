"""Builds the fused kernels at install time (an extension per op)."""
import os
import subprocess

import torch


def cuda_home():
    return os.environ["CUDA_HOME"]


def arch_flags():
    major = int(torch.version.cuda.split(".")[0])
    archs = ["70", "80"] + (["90"] if major >= 12 else [])
    return [f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs]


def nvcc_version(nvcc):
    out = subprocess.check_output([nvcc, "--version"], text=True)
    return out.strip().splitlines()[-1]


def build_ops(names):
    nvcc = os.path.join(cuda_home(), "bin", "nvcc")
    flags = arch_flags()
    version = nvcc_version(nvcc)
    return [{"name": n, "flags": flags, "nvcc": version} for n in names]
