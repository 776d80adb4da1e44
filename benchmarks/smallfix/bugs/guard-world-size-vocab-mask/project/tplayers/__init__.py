from .embedding import VocabParallelEmbedding

__all__ = ["VocabParallelEmbedding"]
