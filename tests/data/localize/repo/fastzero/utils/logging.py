import logging
import os
import sys

_FORMAT = "[%(asctime)s] [%(levelname)s] [%(filename)s:%(lineno)d:%(funcName)s] %(message)s"


def _make_logger(name="fastzero", level=logging.INFO):
    log = logging.getLogger(name)
    if not log.handlers:
        handler = logging.StreamHandler(stream=sys.stdout)
        handler.setFormatter(logging.Formatter(_FORMAT))
        log.addHandler(handler)
    log.setLevel(int(os.environ.get("FASTZERO_LOG_LEVEL", level)))
    log.propagate = False
    return log


logger = _make_logger()


def log_dist(message, ranks=(0,), level=logging.INFO):
    """Log on the given ranks only (-1 means every rank)."""
    rank = int(os.environ.get("RANK", "0"))
    if -1 in ranks or rank in ranks:
        logger.log(level, f"[Rank {rank}] {message}")
