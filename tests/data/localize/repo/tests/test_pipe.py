import torch

from fastzero.runtime.pipe.schedule import PipelineExecutor, TrainSchedule


def test_first_stage_of_four():
    schedule = TrainSchedule(micro_batches=4, stages=4, stage_id=0)
    executor = PipelineExecutor(lambda x: x * 2, schedule)
    executor.run([torch.ones(2) for _ in range(4)])
    assert len(executor.outputs) == 4


def test_last_stage():
    schedule = TrainSchedule(micro_batches=4, stages=2, stage_id=1)
    executor = PipelineExecutor(lambda x: x + 1, schedule)
    executor.run([torch.ones(2) for _ in range(4)])
    assert len(executor.outputs) == 4
