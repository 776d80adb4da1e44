import torch

from mtrain.training_log import ScalarWriter, average_losses, setup_writer, training_log


def test_scalar_writer_roundtrip(tmp_path):
    w = ScalarWriter(str(tmp_path / "tb"))
    w.add_scalar("lm loss", torch.tensor(2.5), 3)
    assert w.read() == [{"tag": "lm loss", "value": 2.5, "step": 3}]


def test_writer_only_on_last_rank(world, tmp_path):
    rank, world_size = world
    writer = setup_writer(str(tmp_path / "tb"))
    assert (writer is not None) == (rank == world_size - 1)


def test_average_losses(world):
    rank, world_size = world
    avg = average_losses({"lm loss": float(rank), "aux loss": 1.0})
    assert avg["aux loss"] == 1.0
    assert avg["lm loss"] == sum(range(world_size)) / world_size


def test_training_log(world, tmp_path):
    rank, world_size = world
    setup_writer(str(tmp_path / ("tb%d" % rank)))
    line = None
    for it in range(1, 3):
        line = training_log({"lm loss": 2.0 + rank}, 1e-4, it)
    if rank == world_size - 1:
        assert line.startswith("iteration        2")
    else:
        assert line is None
