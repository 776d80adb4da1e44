import pytest
import torch

from mdata.packing import SequencePacker


def test_rejects_bad_seq_len():
    with pytest.raises(ValueError):
        SequencePacker(0)


def test_long_documents_are_truncated():
    rows = SequencePacker(4).pack([[1, 2, 3, 4, 5, 6], [7]])
    assert rows == [[[1, 2, 3, 4]], [[7]]]


def test_padding_and_positions():
    ids, pos, doc = SequencePacker(6, pad_id=9)([[1, 2], [3, 4, 5]])
    assert ids.tolist() == [[1, 2, 3, 4, 5, 9]]
    assert pos.tolist() == [[0, 1, 0, 1, 2, 0]]
    assert doc.tolist() == [[0, 0, 1, 1, 1, -1]]


def test_documents_that_fill_a_row_exactly():
    packer = SequencePacker(8)
    docs = [[1] * 4, [2] * 4, [3] * 3, [4] * 5]
    ids, _, doc = packer(docs)
    assert ids.shape == (2, 8)
    assert (doc >= 0).all()
