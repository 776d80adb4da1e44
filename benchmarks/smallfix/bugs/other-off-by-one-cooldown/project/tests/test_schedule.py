import pytest

from pschedule import forward_backward_steps, peak_activations


def test_last_stage_alternates():
    steps = forward_backward_steps(3, num_stages=4, stage_id=3)
    assert steps == [("F", 0), ("B", 0), ("F", 1), ("B", 1), ("F", 2), ("B", 2)]
    assert peak_activations(steps) == 1


def test_bad_arguments():
    with pytest.raises(ValueError):
        forward_backward_steps(4, 2, 2)
    with pytest.raises(ValueError):
        forward_backward_steps(0, 2, 0)


def test_first_stage_peak_memory():
    steps = forward_backward_steps(8, num_stages=4, stage_id=0)
    assert peak_activations(steps) == 4


@pytest.mark.parametrize("stage_id", [0, 1, 2, 3])
def test_every_microbatch_forward_and_backward_once(stage_id):
    steps = forward_backward_steps(6, num_stages=4, stage_id=stage_id)
    assert [i for k, i in steps if k == "F"] == list(range(6))
    assert [i for k, i in steps if k == "B"] == list(range(6))
