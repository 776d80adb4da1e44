"""Per-rank parameter and gradient memory report, printed by rank 0.

Every data-parallel rank measures what it holds (parameter count, parameter
bytes, gradient bytes) and the numbers are gathered on ``dst`` so that one
table with a line per rank is printed at the start of training.
"""
import torch
import torch.distributed as dist

FIELDS = ("params", "param_bytes", "grad_bytes")


def local_stats(model):
    params = param_bytes = grad_bytes = 0
    for p in model.parameters():
        params += p.numel()
        param_bytes += p.numel() * p.element_size()
        if p.grad is not None:
            grad_bytes += p.grad.numel() * p.grad.element_size()
    return torch.tensor([params, param_bytes, grad_bytes], dtype=torch.float64)


def gather_stats(stats, dst=0, group=None):
    """Gather every rank's stats on ``dst``.

    Returns a list with one tensor per rank on ``dst`` and None elsewhere.
    """
    world_size = dist.get_world_size(group)
    rank = dist.get_rank(group)
    gather_list = [torch.empty_like(stats) for _ in range(world_size)]
    dist.gather(stats, gather_list=gather_list, dst=dst, group=group)
    return gather_list if rank == dst else None


def format_report(per_rank):
    lines = ["rank " + " ".join("%14s" % f for f in FIELDS)]
    for rank, stats in enumerate(per_rank):
        lines.append("%4d " % rank + " ".join("%14d" % int(v) for v in stats.tolist()))
    total = torch.stack(list(per_rank)).sum(0)
    lines.append("sum  " + " ".join("%14d" % int(v) for v in total.tolist()))
    return "\n".join(lines)


def report_memory(model, dst=0, group=None, printer=print):
    """Print the memory table on ``dst``; returns the text there, None elsewhere."""
    per_rank = gather_stats(local_stats(model), dst=dst, group=group)
    if per_rank is None:
        return None
    text = format_report(per_rank)
    printer(text)
    return text
