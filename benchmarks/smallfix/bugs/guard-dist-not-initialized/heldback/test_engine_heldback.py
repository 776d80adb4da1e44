import datetime
import logging
import os
import socket

import pytest
import torch
import torch.distributed as dist

from minfer import init_inference


def test_bf16_engine_without_process_group_limits_tokens():
    engine = init_inference(torch.nn.Embedding(10, 4), dtype="bf16", max_tokens=4)
    assert engine(torch.tensor([[1, 2]])).dtype == torch.bfloat16
    with pytest.raises(ValueError, match="max_tokens=4"):
        engine(torch.tensor([[1, 2, 3, 4, 5]]))


def test_logs_on_rank0_without_process_group(caplog):
    with caplog.at_level(logging.INFO, logger="minfer"):
        init_inference(torch.nn.Embedding(10, 4))
    assert "initialized inference engine" in caplog.text


def test_uses_process_group_rank_when_initialized():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=0,
                            world_size=1, timeout=datetime.timedelta(seconds=10))
    try:
        engine = init_inference(torch.nn.Embedding(10, 4), tp_size=1)
        assert engine.rank == 0
        assert engine(torch.tensor([[3]])).shape == (1, 1, 4)
    finally:
        dist.destroy_process_group()
