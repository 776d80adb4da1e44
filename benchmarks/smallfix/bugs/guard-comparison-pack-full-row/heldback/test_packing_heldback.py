import torch

from mdata.packing import SequencePacker


def test_full_length_documents_get_one_row_each():
    packer = SequencePacker(4)
    rows = packer.pack([[1, 2, 3, 4], [5, 6, 7, 8], [9]])
    assert rows == [[[1, 2, 3, 4]], [[5, 6, 7, 8]], [[9]]]


def test_no_empty_rows_and_no_overflow():
    packer = SequencePacker(5)
    docs = [[i] * n for i, n in enumerate([5, 2, 3, 1, 4, 5, 2], start=1)]
    rows = packer.pack(docs)
    assert all(row for row in rows)
    assert all(sum(len(d) for d in row) <= 5 for row in rows)
    assert [sum(len(d) for d in row) for row in rows] == [5, 5, 5, 5, 2]
    ids, _, _ = packer.to_tensors(rows)
    assert ids[:4].ne(0).all()
