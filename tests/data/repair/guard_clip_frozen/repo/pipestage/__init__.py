"""A pipeline-parallel stage and its gradient clipping."""
from pipestage.clip import clip_grad_norm_, local_sq_norm
from pipestage.stage import PipelineStage

__all__ = ["PipelineStage", "clip_grad_norm_", "local_sq_norm"]
