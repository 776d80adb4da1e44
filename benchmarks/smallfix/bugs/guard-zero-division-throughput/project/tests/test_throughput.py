import pytest

from mtimer import ThroughputTimer


class FakeClock:
    def __init__(self, step=0.5):
        self.t, self.step = 0.0, step

    def __call__(self):
        self.t += self.step
        return self.t


def test_stop_without_start():
    with pytest.raises(RuntimeError):
        ThroughputTimer(8).stop()


def test_warmup_steps_are_not_timed():
    timer = ThroughputTimer(batch_size=8, start_step=2, clock=FakeClock(0.5))
    for _ in range(4):
        timer.start()
        timer.stop()
    assert timer.timed_steps == 2
    assert timer.avg_samples_per_sec() == pytest.approx(16.0)


def test_log_every_step_during_warmup():
    lines = []
    timer = ThroughputTimer(batch_size=4, start_step=2, steps_per_output=1,
                            clock=FakeClock(0.25), logger=lines.append)
    for _ in range(3):
        timer.start()
        timer.stop()
    assert len(lines) == 3
    assert lines[-1] == "step=3 samples/sec=16.00"
