from .module import LayerSpec, PipelineModule

__all__ = ["LayerSpec", "PipelineModule"]
