from .engine import Engine, initialize

__all__ = ["Engine", "initialize"]
