"""GRPO on the Planetarium training split with the grader as a verifiable reward.

``config`` (typed, strict YAML; model, data, quantization and LoRA sections shared with
:mod:`planetarium.finetune`), ``train`` (TRL's ``GRPOTrainer``, the run and its record), ``cli``.
Nothing here imports torch, transformers or trl at import time.
"""

from .config import RLConfig, load_config

__all__ = ["RLConfig", "load_config"]
