"""The mesh layout of a run: how many ranks go to data, tensor and pipeline parallelism."""


class MeshConfig:
    def __init__(self, world_size, tensor_parallel=1, pipeline_parallel=1, src_rank=0):
        self.world_size = world_size
        self.tensor_parallel = tensor_parallel
        self.pipeline_parallel = pipeline_parallel
        self.src_rank = src_rank

    @property
    def data_parallel(self):
        return self.world_size // (self.tensor_parallel * self.pipeline_parallel)

    def describe(self):
        return f"dp={self.data_parallel} tp={self.tensor_parallel} pp={self.pipeline_parallel}"
