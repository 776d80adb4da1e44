"""Wall-clock timers for the step breakdown."""
import time

from fastzero.utils.logging import logger


class Timer:
    def __init__(self, name):
        self.name = name
        self.elapsed = 0.0
        self._start = None

    def start(self):
        self._start = time.perf_counter()

    def stop(self):
        self.elapsed += time.perf_counter() - self._start
        self._start = None


class Timers:
    def __init__(self):
        self.timers = {}

    def __call__(self, name):
        if name not in self.timers:
            self.timers[name] = Timer(name)
        return self.timers[name]

    def log(self, names, normalizer=1.0):
        parts = []
        for name in names:
            t = self.timers[name]
            parts.append(f"{name}: {t.elapsed * 1000.0 / normalizer:.2f}")
        summary = {"step": len(parts), "names": names}
        logger.info(f"time (ms) | {' | '.join(parts)} | step {summary["step"]}")
