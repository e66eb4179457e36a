"""Typed evaluation configuration: one YAML file per model, ``--set`` overrides on top.

A run is only comparable to another when everything that shapes the outputs matches, so the
config is a frozen dataclass with a hash over exactly those fields.  Fields that only change how
fast a run goes (batch size, concurrency, retries) are declared ``affects_output=False``:
changing them must not stop a run from resuming.  Loading, overrides and type checks are the
shared rules of :mod:`planetarium.config`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..config import (
    ConfigError,
    apply_overrides,
    at_least,
    between,
    build,
    output_shaping,
    read_yaml,
    setting,
)
from ..limits import MAX_TIMEOUT_S

TINY_PREFIX = "tiny:"


def _model_name(value: str) -> str | None:
    """``tiny:`` takes an optional integer seed (``tiny:3``); anything else is a path or hub id."""
    if not value:
        return "a model path, hub id or tiny:[SEED]"
    if value.startswith(TINY_PREFIX) and not (value[len(TINY_PREFIX):] or "0").isdigit():
        return "tiny: followed by nothing or an integer seed (tiny:, tiny:3)"
    return None


def _splits(value: tuple[str | None, ...]) -> str | None:
    """Each entry a split selector (``heldout:test``, ``random:3+domain:gripper``) or null."""
    from ..dataset.splits import split_problem

    if not value:
        return "at least one split (null selects every row)"
    return next((f"known splits ({problem})" for problem in map(split_problem, value)
                 if problem), None)


def _speed(default: Any, check=None) -> Any:
    """A field that affects throughput only, left out of the config hash."""
    return setting(default, check=check, affects_output=False)


@dataclass(frozen=True)
class EvalConfig:
    """Everything needed to reproduce one model's completions on a dataset selection."""

    name: str = setting(check=lambda v: None if v else "a non-empty run name")
    backend: Literal["vllm", "transformers", "openai"] = setting()
    model: str = setting(check=_model_name)
    dataset: str = setting(check=lambda v: None if v else "a dataset directory, file or hub id")
    splits: tuple[str | None, ...] = setting(("heldout:test",), check=_splits)
    adapter: str | None = None
    max_new_tokens: int = setting(1024, check=at_least(1))
    temperature: float | None = setting(0.0, check=at_least(0))
    seed: int = 0
    limit: int | None = setting(None, check=at_least(1))
    sample_per_domain: int | None = setting(None, check=at_least(1))
    dtype: Literal["auto", "bfloat16", "float16", "float32"] = "auto"
    device: str | None = None
    tensor_parallel_size: int = setting(1, check=at_least(1))
    max_model_len: int | None = setting(None, check=at_least(1))
    base_url: str | None = None
    api_key_env: str | None = None
    use_max_completion_tokens: bool = False
    batch_size: int = _speed(8, at_least(1))
    concurrency: int = _speed(8, at_least(1))
    max_retries: int = _speed(6, at_least(0))
    backoff_s: float = _speed(1.0, at_least(0))
    request_timeout_s: float = _speed(600.0, between(0.001, MAX_TIMEOUT_S))
    gpu_memory_utilization: float | None = _speed(None, between(0.01, 1.0))  # None: per device
    grade_timeout_s: float = _speed(10.0, between(0.001, MAX_TIMEOUT_S))

    def __post_init__(self) -> None:
        if self.backend == "openai" and not self.base_url:
            raise ConfigError("the openai backend needs base_url", key="base_url")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def config_hash(self) -> str:
        """Short SHA-256 over the output-shaping fields only."""
        blob = json.dumps(output_shaping(self), sort_keys=True, default=list)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def make_config(data: Mapping[str, Any], source: str = "config") -> EvalConfig:
    """An :class:`EvalConfig` from a mapping, checked like a YAML file."""
    return build(EvalConfig, data, source=source)


def load_config(path: str | Path, overrides: Iterable[str] = (), **values: Any) -> EvalConfig:
    """Read a YAML config, apply ``key=value`` overrides (``--set``), then named CLI options
    (``values``; ``None`` means "keep the file's")."""
    data = apply_overrides(read_yaml(path), overrides)
    data.update({key: value for key, value in values.items() if value is not None})
    return make_config(data, source=str(path))
