import torch

from fastzero.comm import wrappers as comm


def test_all_reduce_single(single_process_group):
    t = torch.ones(4)
    comm.all_reduce(t)
    assert t.sum() == 4


def test_rank_without_init():
    assert comm.get_rank() == 0
