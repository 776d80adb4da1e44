from pschedule import forward_backward_steps, peak_activations


def test_fewer_microbatches_than_stages():
    for stage in range(5):
        steps = forward_backward_steps(2, num_stages=5, stage_id=stage)
        assert sorted(i for k, i in steps if k == "B") == [0, 1]
        assert peak_activations(steps) <= 2


def test_first_of_two_stages_exact_order():
    assert forward_backward_steps(3, 2, 0) == [
        ("F", 0), ("F", 1), ("B", 0), ("F", 2), ("B", 1), ("B", 2)]


def test_no_backward_before_its_forward():
    for stages in (2, 3, 8):
        for stage in range(stages):
            seen = set()
            for kind, i in forward_backward_steps(5, stages, stage):
                if kind == "F":
                    seen.add(i)
                else:
                    assert i in seen
