import torch

from dloader import MicroBatchLoader


def test_default_collate_of_dicts_over_epochs():
    data = [{"input_ids": torch.tensor([i, i + 1]), "label": i} for i in range(4)]
    loader = MicroBatchLoader(data, 2, drop_last=False)
    batches = [next(loader) for _ in range(3)]
    assert batches[0]["input_ids"].tolist() == [[0, 1], [1, 2]]
    assert batches[1]["label"].tolist() == [2, 3]
    assert batches[2]["label"].tolist() == [0, 1]
    assert loader.epoch == 1


def test_explicit_collate_still_used():
    calls = []
    loader = MicroBatchLoader(list(range(4)), 2, collate_fn=lambda s: calls.append(s) or sum(s))
    assert next(loader) == 1 and calls == [[0, 1]]
