"""Gradient statistics (the catalogue's fixture: one None bug at line 7)."""


def sum_norms(grads):
    total = 0.0
    for g in grads:
        total += g.norm()
    return total


def count(grads):
    return len(grads)
