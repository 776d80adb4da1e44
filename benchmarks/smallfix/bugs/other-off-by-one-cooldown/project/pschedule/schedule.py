"""Non-interleaved 1F1B pipeline schedule (PipeDream-Flush), as used by
Megatron-LM and DeepSpeed pipeline engines.

Stage s of p runs ``min(p - s - 1, m)`` warm-up forwards, then alternates
one forward and one backward until all m micro-batches have been forwarded,
then runs the remaining backwards (cool-down). Every micro-batch is
forwarded once and backwarded once, forwards in order, backwards in order.
"""


def forward_backward_steps(num_microbatches, num_stages, stage_id):
    """Return the list of ("F", i) / ("B", i) steps executed by ``stage_id``."""
    if not 0 <= stage_id < num_stages:
        raise ValueError("stage_id %d outside [0, %d)" % (stage_id, num_stages))
    if num_microbatches < 1:
        raise ValueError("need at least one micro-batch")
    num_warmup = min(num_stages - stage_id - 1, num_microbatches)
    num_steady = num_microbatches - num_warmup
    steps = []
    fwd = bwd = 0
    for _ in range(num_warmup):
        steps.append(("F", fwd))
        fwd += 1
    for _ in range(num_steady):
        steps.append(("F", fwd))
        fwd += 1
        steps.append(("B", bwd))
        bwd += 1
    for _ in range(num_warmup - 1):
        steps.append(("B", bwd))
        bwd += 1
    return steps


def peak_activations(steps):
    """Largest number of micro-batches whose activations are alive at once."""
    alive = peak = 0
    for kind, _ in steps:
        alive += 1 if kind == "F" else -1
        peak = max(peak, alive)
    return peak
