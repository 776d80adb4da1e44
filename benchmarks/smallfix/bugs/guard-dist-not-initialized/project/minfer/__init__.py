from .engine import InferenceEngine, init_inference

__all__ = ["InferenceEngine", "init_inference"]
