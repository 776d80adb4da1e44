import pytest
import torch
from torch.utils.data import TensorDataset

from dloader import MicroBatchLoader


def dataset(n=10):
    return TensorDataset(torch.arange(n).float().unsqueeze(1), torch.arange(n))


def stack_labels(samples):
    return torch.stack([y for _, y in samples])


def test_custom_collate_and_repeat():
    loader = MicroBatchLoader(dataset(5), 2, collate_fn=stack_labels)
    got = [next(loader).tolist() for _ in range(3)]
    assert got == [[0, 1], [2, 3], [0, 1]]
    assert loader.epoch == 1


def test_shuffle_is_seeded_per_epoch():
    a = MicroBatchLoader(dataset(), 5, collate_fn=stack_labels, shuffle=True, seed=3)
    b = MicroBatchLoader(dataset(), 5, collate_fn=stack_labels, shuffle=True, seed=3)
    assert [next(a).tolist() for _ in range(4)] == [next(b).tolist() for _ in range(4)]


def test_sample_shapes():
    assert MicroBatchLoader(dataset(), 4).sample_shapes() == [(4, 1), (4,)]


def test_default_collate():
    loader = MicroBatchLoader(dataset(6), 3)
    x, y = next(loader)
    assert x.shape == (3, 1)
    assert y.tolist() == [0, 1, 2]


def test_bad_micro_batch_size():
    with pytest.raises(ValueError):
        MicroBatchLoader(dataset(), 0)
