"""Training throughput timer in the style of DeepSpeed's ThroughputTimer.

``start()``/``stop()`` bracket one optimizer step. The first ``start_step``
steps are warm-up (compilation, allocator growth) and are not timed.
"""
import time


class ThroughputTimer:
    def __init__(self, batch_size, start_step=2, steps_per_output=50, clock=time.perf_counter,
                 logger=None):
        self.batch_size = batch_size
        self.start_step = start_step
        self.steps_per_output = steps_per_output
        self.clock = clock
        self.logger = logger
        self.global_step_count = 0
        self.timed_steps = 0
        self.total_elapsed_time = 0.0
        self._start = None

    def start(self):
        self._start = self.clock()

    def stop(self, global_step=True):
        if self._start is None:
            raise RuntimeError("stop() called without start()")
        elapsed = self.clock() - self._start
        self._start = None
        if not global_step:
            return
        self.global_step_count += 1
        if self.global_step_count > self.start_step:
            self.timed_steps += 1
            self.total_elapsed_time += elapsed
        if self.logger is not None and self.global_step_count % self.steps_per_output == 0:
            self.logger("step=%d samples/sec=%.2f" % (self.global_step_count,
                                                       self.avg_samples_per_sec()))

    def avg_samples_per_sec(self):
        """Average samples/s over the timed steps (0.0 until a step has been timed)."""
        samples = self.timed_steps * self.batch_size
        return samples / self.total_elapsed_time
