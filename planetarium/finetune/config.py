"""Typed fine-tuning configuration, loaded strictly from YAML.

The original fine-tuning script read ``use_double_quant`` while its YAML said ``double_quant``, so
double quantization was silently off for every published run.  Here every section is a frozen
dataclass built by the shared loader (:mod:`planetarium.config`), which rejects any key a
dataclass does not declare (suggesting the closest valid one) and any value of the wrong type, so
a misspelt key fails loudly instead of falling back to a default.  CLI overrides
(``--set training.max_steps=5``) go through the very same checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..config import at_least, between, load, setting


def max_steps_check(value: int) -> str | None:
    """``training.max_steps`` of every training run: >= 1 stops early (smoke runs), -1 trains for
    ``epochs``; 0 would train nothing, so it is refused."""
    return None if value == -1 or value >= 1 else "-1 (train for 'epochs') or a number of steps >= 1"

@dataclass(frozen=True)
class QuantizationConfig:
    """bitsandbytes 4-bit loading (QLoRA), on a CUDA GPU and on a CPU alike.

    ``load_in_4bit: false`` is the only way to train in full precision.  ``compute_dtype`` is the
    4-bit layers' compute dtype, and also the dtype the model is loaded and trained in on a GPU
    without 4-bit (a CPU keeps its unquantized weights in float32).
    """

    load_in_4bit: bool = True
    quant_type: Literal["nf4", "fp4"] = "nf4"
    double_quant: bool = True
    compute_dtype: Literal["bfloat16", "float16", "float32"] = "bfloat16"


@dataclass(frozen=True)
class LoraConfig:
    """LoRA adapter shape; ``all-linear`` means every linear layer except the LM head (peft)."""

    r: int = setting(16, check=at_least(1))
    alpha: int = setting(32, check=at_least(1))
    dropout: float = setting(0.05, check=between(0.0, 1.0))
    target_modules: str = "all-linear"


@dataclass(frozen=True)
class TrainingConfig:
    """Optimiser and loop settings; defaults are the paper's Appendix F recipe."""

    optimizer: str = "adamw_torch"
    learning_rate: float = setting(2e-5, check=between(0.0, 1.0))
    adam_beta1: float = setting(0.9, check=between(0.0, 1.0))
    adam_beta2: float = setting(0.999, check=between(0.0, 1.0))
    adam_epsilon: float = setting(1e-8, check=at_least(0.0))
    weight_decay: float = setting(0.01, check=at_least(0.0))
    batch_size: int = setting(1, check=at_least(1))
    gradient_accumulation_steps: int = setting(1, check=at_least(1))
    max_seq_length: int = setting(1500, check=at_least(1))
    epochs: float = setting(1.0, check=at_least(0.0))
    max_steps: int = setting(-1, check=max_steps_check)
    drop_longest_fraction: float = setting(0.05, check=between(0.0, 0.99))
    gradient_checkpointing: bool = True
    logging_steps: int = setting(10, check=at_least(1))
    save_steps: int = setting(500, check=at_least(1))
    save_total_limit: int = setting(2, check=at_least(1))
    seed: int = 0


def _split(value: str) -> str | None:
    from ..dataset.splits import split_problem

    problem = split_problem(value)
    return f"a known split ({problem})" if problem else None


@dataclass(frozen=True)
class DataConfig:
    """Which rows to train on: a ``planetarium.dataset.load_rows`` source and split."""

    source: str = setting(check=lambda v: None if v else "a dataset directory, file or config")
    split: str = setting("heldout:train", check=_split)


@dataclass(frozen=True)
class RunConfig:
    """What every training run names first: the base model (a hub id, a local path, or
    ``tiny:``, the local toy model), its rows, its output folder and its attention kernel."""

    model: str
    data: DataConfig
    out_dir: str
    attn_implementation: str = "eager"  # Gemma 2 needs eager attention for its logit soft-capping

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class FinetuneConfig(RunConfig):
    """One fine-tuning run."""

    quantization: QuantizationConfig = field(default_factory=QuantizationConfig)
    lora: LoraConfig = field(default_factory=LoraConfig)
    training: TrainingConfig = field(default_factory=TrainingConfig)


def load_config(path: str | Path, overrides: Iterable[str] = ()) -> FinetuneConfig:
    """Read a YAML config, apply ``dotted.key=value`` overrides, and check it strictly."""
    return load(FinetuneConfig, path, overrides)
