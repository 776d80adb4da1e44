from .throughput import ThroughputTimer

__all__ = ["ThroughputTimer"]
