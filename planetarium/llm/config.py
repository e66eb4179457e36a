"""Typed evaluation configuration: one YAML file per model, CLI overrides on top.

A run is only comparable to another when everything that shapes the outputs matches, so the
config is a frozen dataclass with a hash over exactly those fields.  Fields that only change how
fast a run goes (batch size, concurrency, retries) are marked ``hash=False`` in their metadata:
changing them must not stop a run from resuming.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

import yaml

from ..errors import PlanetariumError
from ..yamlconfig import read_yaml_mapping

BACKENDS = ("vllm", "transformers", "openai")
TINY_PREFIX = "tiny:"


class ConfigError(PlanetariumError, ValueError):
    """The evaluation config file or an override is invalid."""


def _speed(default: Any) -> Any:
    """A field that affects throughput only, left out of the config hash."""
    return field(default=default, metadata={"hash": False})


@dataclass(frozen=True)
class EvalConfig:
    """Everything needed to reproduce one model's completions on a dataset selection."""

    name: str
    backend: str
    model: str
    dataset: str
    splits: tuple[str | None, ...] = ("heldout:test",)
    adapter: str | None = None
    max_new_tokens: int = 1024
    temperature: float | None = 0.0
    seed: int = 0
    limit: int | None = None
    sample_per_domain: int | None = None
    dtype: str = "auto"
    device: str | None = None
    tensor_parallel_size: int = 1
    max_model_len: int | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    use_max_completion_tokens: bool = False
    batch_size: int = _speed(8)
    concurrency: int = _speed(8)
    max_retries: int = _speed(6)
    backoff_s: float = _speed(1.0)
    request_timeout_s: float = _speed(600.0)
    gpu_memory_utilization: float | None = _speed(None)  # None: per device, see vllm_backend
    grade_timeout_s: float = _speed(10.0)

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {BACKENDS}, got {self.backend!r}")
        if self.backend == "openai" and not self.base_url:
            raise ConfigError("the openai backend needs base_url")
        if self.max_new_tokens < 1 or self.batch_size < 1 or self.concurrency < 1:
            raise ConfigError("max_new_tokens, batch_size and concurrency must be positive")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def config_hash(self) -> str:
        """Short SHA-256 over the output-shaping fields only."""
        shaping = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.metadata.get("hash", True)
        }
        blob = json.dumps(shaping, sort_keys=True, default=list)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Bring YAML/CLI values into the declared field type (tuples for splits, floats for ints)."""
    if name == "splits":
        return tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if hint is float or hint == float | None:
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value
    return value


def make_config(data: dict[str, Any], overrides: dict[str, Any] | None = None) -> EvalConfig:
    """Build a config from a mapping plus overrides, rejecting unknown keys by name."""
    merged = {**data, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    hints = get_type_hints(EvalConfig)
    unknown = sorted(set(merged) - set(hints))
    if unknown:
        raise ConfigError(f"unknown config keys: {', '.join(unknown)}")
    try:
        return EvalConfig(**{k: _coerce(k, v, hints[k]) for k, v in merged.items()})
    except TypeError as err:
        raise ConfigError(str(err)) from err


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> EvalConfig:
    """Read a YAML config with ``yaml.safe_load`` (never ``yaml.load``) and apply overrides."""
    data = read_yaml_mapping(path, ConfigError)
    return make_config(data, overrides)


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line; the value is read as YAML so types survive."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise ConfigError(f"override must look like key=value, got {text!r}")
    return key.strip().replace("-", "_"), yaml.safe_load(raw)
