"""Typed evaluation configuration in two sections: the ``model:`` and the ``benchmark:``.

    name: tiny
    model:                       # the backend, and that backend's own options
      backend: transformers
      model: "tiny:"
      max_new_tokens: 32
      device: cpu
    benchmark:                   # what is asked and how answers are graded
      name: planetarium
      dataset: data/demo.yaml
      split: [heldout:test]

``model.backend`` picks the options class of a registered backend
(:mod:`planetarium.llm.backends.registry`) and ``benchmark.name`` the config class of a
registered benchmark (:mod:`planetarium.benchmarks`); each section is then built strictly by
:mod:`planetarium.config`, so a key another backend would take (``tensor_parallel_size`` on
transformers, an ``adapter`` on an API backend) is a one-line error that says so, before
anything is loaded.  A flat file of the old layout is refused with the new layout shown.

A run is only comparable to another when everything that shapes the outputs matches, so the
config hash covers exactly those fields; fields declared ``affects_output=False`` (batch size,
concurrency, retries, grading limits) only change how fast a run goes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..benchmarks import BenchmarkConfig
from ..config import ConfigError, apply_overrides, build, output_shaping, read_yaml
from .options import ModelConfig

#: How the CLI's named options reach the sections (``--limit`` is the benchmark's).
CLI_KEYS = {"model": "model.model", "adapter": "model.adapter", "limit": "benchmark.limit",
            "max_new_tokens": "model.max_new_tokens", "batch_size": "model.batch_size"}
NEW_LAYOUT = ("model: {backend: BACKEND, model: MODEL, max_new_tokens: N, ...backend options}, "
              "benchmark: {name: planetarium, dataset: DATASET, split: [heldout:test], limit: N}")


@dataclass(frozen=True)
class EvalConfig:
    """Everything needed to reproduce one model's answers on one benchmark selection."""

    name: str
    model: ModelConfig
    benchmark: BenchmarkConfig

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def config_hash(self) -> str:
        """Short SHA-256 over the output-shaping fields only."""
        shaping = {"name": self.name, "model": output_shaping(self.model),
                   "benchmark": output_shaping(self.benchmark)}
        blob = json.dumps(shaping, sort_keys=True, default=list)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def _selected(data: Mapping[str, Any], key: str, selector: str,
              lookup: Callable[[str], Any]) -> tuple[dict[str, Any], Any]:
    """The section ``key`` and the plug-in its ``selector`` names (a backend, a benchmark)."""
    section = data.get(key)
    if not isinstance(section, Mapping):
        raise ConfigError(f"expected a mapping with at least '{selector}' (the layout: "
                          f"{NEW_LAYOUT})", key=key)
    if not section.get(selector) or not isinstance(section[selector], str):
        raise ConfigError("missing (required)", key=f"{key}.{selector}")
    try:
        return dict(section), lookup(section[selector])
    except LookupError as err:
        raise ConfigError(str(err), key=f"{key}.{selector}") from None


def _model_section(data: Mapping[str, Any]) -> ModelConfig:
    """The backend's options class, with a key that belongs to other backends named as such."""
    from .backends.registry import available_backends, get_backend

    section, spec = _selected(data, "model", "backend", get_backend)
    own = _fields(spec.options)
    for key in section:
        if key in own:
            continue
        others = sorted(name for name, other in available_backends().items()
                        if key in _fields(other.options))
        if key == "adapter" and others:
            raise ConfigError(f"backend {spec.name} cannot load an adapter (backends that can: "
                              f"{', '.join(others)})", key="model.adapter")
        if others:
            raise ConfigError(f"an option of backend {', '.join(others)}; backend {spec.name} "
                              "does not take it", key=f"model.{key}")
    return build(spec.options, section, key="model")


def _benchmark_section(data: Mapping[str, Any]) -> BenchmarkConfig:
    from ..benchmarks import get_benchmark

    section, benchmark = _selected(data, "benchmark", "name", get_benchmark)
    return build(benchmark.config_type, section, key="benchmark")


def _refuse_flat(data: Mapping[str, Any]) -> None:
    if "backend" in data or isinstance(data.get("model"), str):
        raise ConfigError(f"the flat layout of old eval configs is gone; write two sections: "
                          f"{NEW_LAYOUT}")


def make_config(data: Mapping[str, Any], source: str = "config") -> EvalConfig:
    """An :class:`EvalConfig` from a mapping, checked like a YAML file."""
    try:
        _refuse_flat(data)
        unknown = sorted(set(data) - {"name", "model", "benchmark"})
        if unknown:
            raise ConfigError("unknown key (allowed: benchmark, model, name)", key=unknown[0])
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise ConfigError("expected a non-empty run name", key="name")
        return EvalConfig(name, _model_section(data), _benchmark_section(data))
    except ConfigError as err:
        raise err.at(source) from None


#: The benchmark of run folders written before run records named theirs (all Planetarium runs).
LEGACY_BENCHMARK = "planetarium"
#: Keys of the flat layout that belong to the benchmark, and their names now.
_FLAT_BENCHMARK_KEYS = {"dataset": "dataset", "splits": "split", "limit": "limit",
                        "sample_per_domain": "sample_per_domain", "seed": "seed",
                        "grade_timeout_s": "timeout_s"}


def upgrade_record(record: dict[str, Any]) -> dict[str, Any]:
    """A run record (``run.json``, ``results.json``) with its ``config`` in the two sections.

    Run folders written before the sections existed hold a flat config of a Planetarium run;
    read this way they can still be graded, reported and compared with new runs (their config
    hash, computed then, stays as recorded)."""
    config = record.get("config")
    if not isinstance(config, dict) or isinstance(config.get("model"), dict):
        return record
    benchmark = {new: config[old] for old, new in _FLAT_BENCHMARK_KEYS.items() if old in config}
    model = {k: v for k, v in config.items() if k not in _FLAT_BENCHMARK_KEYS and k != "name"}
    if "seed" in config:
        model["seed"] = config["seed"]  # it seeded decoding and the sampling of items alike
    sections = {"name": config.get("name"), "model": model,
                "benchmark": {"name": LEGACY_BENCHMARK, **benchmark}}
    return {"benchmark": LEGACY_BENCHMARK, **record, "config": sections}


def load_config(path: str | Path, overrides: Iterable[str] = (), **values: Any) -> EvalConfig:
    """Read a YAML config, apply ``section.key=value`` overrides (``--set``), then the CLI's
    named options (``values``, see :data:`CLI_KEYS`; ``None`` keeps the file's)."""
    named = [f"{CLI_KEYS[key]}={json.dumps(value)}" for key, value in values.items()
             if value is not None]
    data = read_yaml(path)
    try:
        _refuse_flat(data)
    except ConfigError as err:
        raise err.at(str(path)) from None
    data = apply_overrides(data, [*overrides, *named])
    return make_config(data, source=str(path))
