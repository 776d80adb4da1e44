from pkg.stats import count, sum_norms


class Vec:
    def __init__(self, x):
        self.x = x

    def norm(self):
        return abs(self.x)


def test_skips_missing_grads():
    assert sum_norms([Vec(3), None, Vec(-1)]) == 4


def test_count():
    assert count([Vec(1), None]) == 2
