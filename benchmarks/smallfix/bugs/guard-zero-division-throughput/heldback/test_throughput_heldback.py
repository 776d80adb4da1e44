from mtimer import ThroughputTimer


def test_zero_before_any_timed_step():
    timer = ThroughputTimer(batch_size=4, start_step=3)
    assert timer.avg_samples_per_sec() == 0.0
    timer.start()
    timer.stop()
    assert timer.avg_samples_per_sec() == 0.0


def test_logged_values_during_and_after_warmup():
    ticks = iter([0.0, 1.0, 1.0, 2.0, 2.0, 2.5])
    lines = []
    timer = ThroughputTimer(batch_size=2, start_step=1, steps_per_output=1,
                            clock=lambda: next(ticks), logger=lines.append)
    for _ in range(3):
        timer.start()
        timer.stop()
    assert lines == ["step=1 samples/sec=0.00", "step=2 samples/sec=2.00",
                     "step=3 samples/sec=2.67"]


def test_non_global_steps_do_not_count():
    timer = ThroughputTimer(batch_size=2, start_step=0)
    timer.start()
    timer.stop(global_step=False)
    assert timer.global_step_count == 0 and timer.avg_samples_per_sec() == 0.0
