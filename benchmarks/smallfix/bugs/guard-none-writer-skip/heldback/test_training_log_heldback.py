import torch.distributed as dist

from mtrain.training_log import get_writer, setup_writer, training_log


def test_last_rank_records_averaged_scalars(world, tmp_path):
    rank, world_size = world
    setup_writer(str(tmp_path / ("tb%d" % rank)))
    training_log({"lm loss": float(rank)}, 0.5, 7)
    training_log({"lm loss": 1.0}, 0.25, 8, log_interval=4)
    if rank == world_size - 1:
        recs = get_writer().read()
        assert {(r["tag"], r["step"]) for r in recs} == {
            ("lm loss", 7), ("learning-rate", 7), ("lm loss", 8), ("learning-rate", 8)}
        loss7 = [r["value"] for r in recs if r["tag"] == "lm loss" and r["step"] == 7]
        assert loss7 == [sum(range(world_size)) / world_size]
    else:
        assert get_writer() is None


def test_no_log_dir_means_no_writer_anywhere(world):
    setup_writer(None)
    assert get_writer() is None
    line = training_log({"lm loss": 3.0}, 1e-3, 10, log_interval=5)
    rank, world_size = world
    assert (line is not None) == (rank == world_size - 1)
    dist.barrier()
