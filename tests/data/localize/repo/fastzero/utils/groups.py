"""Process-group layout (tensor / pipeline / data parallel sizes) read from the parallel section."""
from fastzero.utils.logging import logger


def group_sizes(parallel, world_size):
    tp = parallel.tensor_parallel
    pp = parallel.pipeline_parallel
    dp = world_size // (tp * pp)
    return tp, pp, dp


def describe_layout(cfg, world_size):
    tp, pp, dp = group_sizes(cfg, world_size)
    logger.info(f"layout: tp={tp} pp={pp} dp={dp}")
    return {"tp": tp, "pp": pp, "dp": dp}


class ParallelSection:
    def __init__(self, tensor_parallel=1, pipeline_parallel=1):
        self.tensor_parallel = tensor_parallel
        self.pipeline_parallel = pipeline_parallel


class CSVConfig:
    """A run configuration read from a key,value file."""

    def __init__(self, rows):
        self.rows = dict(rows)
        self.parallel = ParallelSection(int(self.rows.get("tp", 1)), int(self.rows.get("pp", 1)))
