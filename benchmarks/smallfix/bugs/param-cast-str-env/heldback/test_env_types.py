from minilaunch.config import LaunchConfig
from minilaunch.workers import worker_commands, worker_envs


def test_env_values_are_ints():
    cfg = LaunchConfig.from_env({"NPROC_PER_NODE": "3", "NNODES": "2", "NODE_RANK": "1", "MASTER_PORT": "6000"})
    assert cfg.nproc_per_node == 3 and isinstance(cfg.nproc_per_node, int)
    assert cfg.world_size == 6
    assert [e["RANK"] for e in worker_envs(cfg)] == ["3", "4", "5"]
    assert len(worker_commands(cfg, "train.py")) == 3


def test_os_environ_is_default(monkeypatch):
    monkeypatch.setenv("NPROC_PER_NODE", "2")
    monkeypatch.delenv("NNODES", raising=False)
    monkeypatch.delenv("NODE_RANK", raising=False)
    cfg = LaunchConfig.from_env()
    assert cfg.world_size == 2
    assert worker_envs(cfg)[1]["LOCAL_WORLD_SIZE"] == "2"
