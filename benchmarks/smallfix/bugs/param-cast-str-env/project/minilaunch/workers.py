"""Environment of every worker process this node starts."""


def worker_envs(cfg, base_env=None):
    cfg.validate()
    envs = []
    for local_rank in range(cfg.nproc_per_node):
        env = dict(base_env or {})
        env.update({
            "RANK": str(cfg.node_rank * cfg.nproc_per_node + local_rank),
            "LOCAL_RANK": str(local_rank),
            "WORLD_SIZE": str(cfg.world_size),
            "LOCAL_WORLD_SIZE": str(cfg.nproc_per_node),
            "GROUP_RANK": str(cfg.node_rank),
            "MASTER_ADDR": cfg.master_addr,
            "MASTER_PORT": str(cfg.master_port),
        })
        envs.append(env)
    return envs


def worker_commands(cfg, script, script_args=()):
    return [["python", "-u", script, "--local_rank=%d" % env_rank, *script_args]
            for env_rank in range(cfg.nproc_per_node)]
