"""Typed fine-tuning configuration, loaded strictly from YAML.

The original fine-tuning script read ``use_double_quant`` while its YAML said ``double_quant``, so
double quantization was silently off for every published run.  Here every section is a frozen
dataclass and the loader rejects any key a dataclass does not declare (suggesting the closest
valid one), so a misspelt key fails loudly instead of falling back to a default.  CLI overrides
(``--set training.max_steps=5``) go through the very same validation.
"""

from __future__ import annotations

import dataclasses
import difflib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from planetarium.errors import PlanetariumError
from planetarium.yamlconfig import read_yaml_mapping


class ConfigError(PlanetariumError, ValueError):
    """A fine-tuning configuration is malformed: unknown key, wrong type, bad value."""


@dataclass(frozen=True)
class QuantizationConfig:
    """bitsandbytes 4-bit loading (QLoRA), on a CUDA GPU and on a CPU alike.

    ``load_in_4bit: false`` is the only way to train in full precision.  ``compute_dtype`` is the
    4-bit layers' compute dtype, and also the dtype the model is loaded and trained in on a GPU
    without 4-bit (a CPU keeps its unquantized weights in float32).
    """

    load_in_4bit: bool = True
    quant_type: str = "nf4"
    double_quant: bool = True
    compute_dtype: str = "bfloat16"

    def __post_init__(self) -> None:
        _check_choice("quantization.quant_type", self.quant_type, ("nf4", "fp4"))
        _check_choice(
            "quantization.compute_dtype", self.compute_dtype, ("bfloat16", "float16", "float32")
        )


@dataclass(frozen=True)
class LoraConfig:
    """LoRA adapter shape; ``all-linear`` means every linear layer except the LM head (peft)."""

    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: str = "all-linear"


@dataclass(frozen=True)
class TrainingConfig:
    """Optimiser and loop settings; defaults are the paper's Appendix F recipe."""

    optimizer: str = "adamw_torch"
    learning_rate: float = 2e-5
    adam_beta1: float = 0.9
    adam_beta2: float = 0.999
    adam_epsilon: float = 1e-8
    weight_decay: float = 0.01
    batch_size: int = 1
    gradient_accumulation_steps: int = 1
    max_seq_length: int = 1500
    epochs: float = 1.0
    max_steps: int = -1  # > 0 stops early (smoke runs); -1 trains the full epochs
    drop_longest_fraction: float = 0.05
    gradient_checkpointing: bool = True
    logging_steps: int = 10
    save_steps: int = 500
    save_total_limit: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.drop_longest_fraction < 1.0:
            raise ConfigError("training.drop_longest_fraction must be in [0, 1)")
        for name in (
            "batch_size",
            "gradient_accumulation_steps",
            "max_seq_length",
            "logging_steps",
            "save_steps",
        ):
            if getattr(self, name) < 1:
                raise ConfigError(f"training.{name} must be >= 1")


@dataclass(frozen=True)
class DataConfig:
    """Which rows to train on: a ``planetarium.dataset.load_rows`` source and split."""

    source: str
    split: str = "random:train"


@dataclass(frozen=True)
class FinetuneConfig:
    """One fine-tuning run; ``model`` is a hub id, a local path, or ``tiny:`` (local toy model)."""

    model: str
    data: DataConfig
    out_dir: str
    attn_implementation: str = "eager"  # Gemma 2 needs eager attention for its logit soft-capping
    quantization: QuantizationConfig = field(default_factory=QuantizationConfig)
    lora: LoraConfig = field(default_factory=LoraConfig)
    training: TrainingConfig = field(default_factory=TrainingConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def load_config(path: str | Path, overrides: typing.Iterable[str] = ()) -> FinetuneConfig:
    """Read a YAML config, apply ``dotted.key=value`` overrides, and validate it strictly."""
    data = read_yaml_mapping(path, ConfigError)
    for item in overrides:
        apply_override(data, item)
    try:
        return build(FinetuneConfig, data)
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None


def apply_override(data: dict[str, Any], item: str) -> None:
    """Set ``a.b.c=value`` in a nested dict; the value is parsed as YAML (``5``, ``true``, ...)."""
    key, sep, raw = item.partition("=")
    if not sep or not key:
        raise ConfigError(f"override {item!r} is not of the form key=value")
    *parents, leaf = key.strip().split(".")
    node = data
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"override {item!r}: {part!r} is not a section")
    node[leaf] = yaml.safe_load(raw)


def build(cls: type, data: Any, where: str = "") -> Any:
    """Instantiate dataclass ``cls`` from ``data``, rejecting unknown keys and wrong types."""
    if not isinstance(data, dict):
        raise ConfigError(
            f"{where.rstrip('.') or 'config'}: expected a mapping, got {type(data).__name__}"
        )
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        key = unknown[0]
        close = difflib.get_close_matches(str(key), fields, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigError(
            f"unknown key {where + str(key)!r}{hint} (allowed: {', '.join(sorted(fields))})"
        )
    missing = [
        name
        for name, f in fields.items()
        if name not in data
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise ConfigError(f"missing key {where + missing[0]!r}")
    hints = typing.get_type_hints(cls)
    values = {name: _coerce(hints[name], value, where + name) for name, value in data.items()}
    return cls(**values)


def _coerce(hint: Any, value: Any, where: str) -> Any:
    """Check ``value`` against a field's type; ints pass as floats, dicts build dataclasses."""
    if dataclasses.is_dataclass(hint):
        return build(hint, value, where + ".")
    if hint is float and isinstance(value, str):
        # PyYAML reads ``2e-5`` (no dot) as a string; accept it when it is a number.
        try:
            return float(value)
        except ValueError:
            pass
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, hint) and not (hint is int and isinstance(value, bool)):
        return value
    raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}")


def _check_choice(where: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ConfigError(f"{where}: {value!r} is not one of {', '.join(choices)}")
