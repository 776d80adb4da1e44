"""Greedy sequence packing for pretraining data, in the style of Megatron's
GPT dataset builders: tokenized documents are packed, in order, into rows of
exactly ``seq_len`` tokens; a document never straddles two rows (longer
ones are truncated) and the tail of a row is padded with ``pad_id``.
Position ids restart at 0 at every document boundary.
"""
import torch


class SequencePacker:
    def __init__(self, seq_len, pad_id=0):
        if seq_len <= 0:
            raise ValueError("seq_len must be positive")
        self.seq_len = seq_len
        self.pad_id = pad_id

    def pack(self, documents):
        """Group documents into rows; returns a list of lists of documents."""
        rows, current, used = [], [], 0
        for doc in documents:
            doc = list(doc)[: self.seq_len]
            if not doc:
                continue
            if used + len(doc) < self.seq_len:
                current.append(doc)
                used += len(doc)
            else:
                if current:
                    rows.append(current)
                current, used = [doc], len(doc)
        if current:
            rows.append(current)
        return rows

    def to_tensors(self, rows):
        """input_ids, position_ids and doc_ids (-1 on padding), each [rows, seq_len]."""
        shape = (len(rows), self.seq_len)
        input_ids = torch.full(shape, self.pad_id, dtype=torch.long)
        position_ids = torch.zeros(shape, dtype=torch.long)
        doc_ids = torch.full(shape, -1, dtype=torch.long)
        for r, row in enumerate(rows):
            offset = 0
            for d, doc in enumerate(row):
                n = len(doc)
                input_ids[r, offset:offset + n] = torch.tensor(doc)
                position_ids[r, offset:offset + n] = torch.arange(n)
                doc_ids[r, offset:offset + n] = d
                offset += n
        return input_ids, position_ids, doc_ids

    def __call__(self, documents):
        return self.to_tensors(self.pack(documents))
