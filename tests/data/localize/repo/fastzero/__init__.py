"""fastzero: a small ZeRO-style data/pipeline/tensor parallel training library."""

__version__ = "0.4.2"

from fastzero.utils.config import FastZeroConfig  # noqa: F401
