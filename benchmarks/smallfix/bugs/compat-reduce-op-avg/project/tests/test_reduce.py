import torch

from trainlog.reduce import LossLogger, average_losses_across_data_parallel_group, max_across_ranks


def test_max_step_time(dist_init):
    rank, world_size = dist_init
    assert max_across_ranks([0.5 + rank, 2.0]) == [0.5 + world_size - 1, 2.0]


def test_average_losses(dist_init):
    rank, world_size = dist_init
    out = average_losses_across_data_parallel_group([torch.tensor(float(rank)), torch.tensor(2.0)])
    assert torch.allclose(out, torch.tensor([(world_size - 1) / 2, 2.0]))


def test_loss_logger(dist_init):
    rank, world_size = dist_init
    logger = LossLogger(["lm loss"])
    record = logger.log(10, [torch.tensor(2.0 * (rank + 1))])
    assert record == {"iteration": 10, "lm loss": float(world_size + 1)}
