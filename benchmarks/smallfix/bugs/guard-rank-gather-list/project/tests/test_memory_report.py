import torch

from tinytron import format_report, local_stats, report_memory


def test_local_stats_counts_params_and_grads():
    model = torch.nn.Linear(4, 3)
    stats = local_stats(model)
    assert stats.tolist() == [15, 60, 0]
    model(torch.randn(2, 4)).sum().backward()
    assert local_stats(model).tolist() == [15, 60, 60]


def test_format_report_has_line_per_rank_and_sum():
    text = format_report([torch.tensor([1.0, 4.0, 0.0]), torch.tensor([2.0, 8.0, 8.0])])
    lines = text.splitlines()
    assert len(lines) == 4
    assert lines[-1].split() == ["sum", "3", "12", "8"]


def test_report_on_rank0(world):
    rank, world_size = world
    torch.manual_seed(rank)
    model = torch.nn.Linear(4 * (rank + 1), 2)
    text = report_memory(model)
    if rank == 0:
        lines = text.splitlines()
        assert len(lines) == world_size + 2
        assert lines[1].split()[:2] == ["0", "10"]
        assert lines[2].split()[:2] == ["1", "18"]
    else:
        assert text is None
