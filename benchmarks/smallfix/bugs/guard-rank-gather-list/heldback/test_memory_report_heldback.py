import torch

from tinytron import gather_stats, report_memory


def test_gather_on_last_rank(world):
    rank, world_size = world
    stats = torch.tensor([float(rank), 2.0 * rank, 0.0], dtype=torch.float64)
    out = gather_stats(stats, dst=world_size - 1)
    if rank == world_size - 1:
        assert [t[0].item() for t in out] == list(range(world_size))
        assert [t[1].item() for t in out] == [2.0 * r for r in range(world_size)]
    else:
        assert out is None


def test_report_printer_called_only_on_dst(world):
    rank, world_size = world
    printed = []
    report_memory(torch.nn.Linear(2, 2), dst=1, printer=printed.append)
    assert len(printed) == (1 if rank == 1 else 0)
