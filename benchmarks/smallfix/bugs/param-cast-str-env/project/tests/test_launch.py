import pytest

from minilaunch.config import LaunchConfig
from minilaunch.workers import worker_commands, worker_envs


def test_defaults_from_empty_env():
    cfg = LaunchConfig.from_env({})
    assert (cfg.nnodes, cfg.node_rank, cfg.nproc_per_node, cfg.world_size) == (1, 0, 1, 1)
    assert [e["RANK"] for e in worker_envs(cfg)] == ["0"]


def test_explicit_config_two_nodes():
    cfg = LaunchConfig(nnodes=2, node_rank=1, nproc_per_node=2, master_port=1234)
    envs = worker_envs(cfg, {"PATH": "/bin"})
    assert [e["RANK"] for e in envs] == ["2", "3"]
    assert all(e["WORLD_SIZE"] == "4" and e["PATH"] == "/bin" for e in envs)


def test_bad_node_rank():
    with pytest.raises(ValueError):
        worker_envs(LaunchConfig(nnodes=2, node_rank=2))


def test_from_scheduler_env():
    env = {"NNODES": "2", "NODE_RANK": "0", "NPROC_PER_NODE": "4", "MASTER_ADDR": "node001"}
    cfg = LaunchConfig.from_env(env)
    envs = worker_envs(cfg)
    assert [e["LOCAL_RANK"] for e in envs] == ["0", "1", "2", "3"]
    assert envs[3]["WORLD_SIZE"] == "8"
    assert envs[0]["MASTER_ADDR"] == "node001"
