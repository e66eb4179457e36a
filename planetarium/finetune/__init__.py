"""QLoRA supervised fine-tuning on the Planetarium training split (paper, Appendix F).

``config`` (typed, strict YAML), ``data`` (prompt formatting, longest-5% filter, answer-only
masking), ``model`` (4-bit loading, LoRA), ``train`` (the run and its record), ``cli``.
Nothing here imports torch or transformers at import time.
"""

from .config import FinetuneConfig, load_config

__all__ = ["FinetuneConfig", "load_config"]
