"""Dataset configuration: a YAML file (``data/full.yaml``, ``data/demo.yaml``) as typed dataclasses.

Shape::

    seed: 42              # random split: ids shuffled with this seed ...
    folds: 5              # ... and dealt round-robin into this many folds
    test_fold: 4          # the fold that is "test" in split_random
    size_bins: [20, 40, 60, 80]   # size split: init+goal proposition count in (0,20], ...
    domains:
      - name: blocksworld
        layouts:          # optional; omitted = every layout of the domain, default parameters
          stack: {space: {max_blocks: 55}}   # call the layout's space() with these arguments
          tower: {params: [[1, 2], [3]]}     # or give the parameter list explicitly
          on_table: {}                       # the layout's defaults
        heldout:          # rows matching any rule are "test" in split_heldout
          - {init: invert, goal: invert}
          - {goal: focus_min}                # a missing side matches every layout
          - {}                               # every row of the domain

Only listed layouts take part.  Unknown keys are errors: a typo must not silently change the
dataset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PlanetariumError


class DatasetConfigError(PlanetariumError, ValueError):
    """The dataset configuration is malformed (unknown key, wrong type, unknown layout)."""


@dataclass(frozen=True)
class LayoutConfig:
    """Where one layout's parameters come from: an explicit list, or its space() arguments."""

    params: tuple[Any, ...] | None = None
    space: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HeldoutRule:
    """Rows whose init (goal) layout equals ``init`` (``goal``); None matches any layout."""

    init: str | None = None
    goal: str | None = None

    def matches(self, init: str, goal: str) -> bool:
        return self.init in (None, init) and self.goal in (None, goal)


@dataclass(frozen=True)
class DomainConfig:
    name: str
    layouts: dict[str, LayoutConfig] | None = None  # None: every layout, defaults
    heldout: tuple[HeldoutRule, ...] = ()


@dataclass(frozen=True)
class DatasetConfig:
    domains: tuple[DomainConfig, ...]
    seed: int = 42
    folds: int = 5
    test_fold: int = 4
    size_bins: tuple[int, ...] = (20, 40, 60, 80)


def _check_keys(where: str, data: Any, allowed: set[str]) -> dict:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DatasetConfigError(f"{where}: expected a mapping, got {type(data).__name__}")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise DatasetConfigError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")
    return data


def _layout(where: str, data: Any) -> LayoutConfig:
    data = _check_keys(where, data, {"params", "space"})
    if "params" in data and "space" in data:
        raise DatasetConfigError(f"{where}: give either params or space, not both")
    params = data.get("params")
    if params is not None and not isinstance(params, list):
        raise DatasetConfigError(f"{where}.params: expected a list")
    space = _check_keys(f"{where}.space", data.get("space"), set(data.get("space") or {}))
    return LayoutConfig(params=tuple(params) if params is not None else None, space=dict(space))


def _domain(where: str, data: Any) -> DomainConfig:
    data = _check_keys(where, data, {"name", "layouts", "heldout"})
    if not isinstance(data.get("name"), str):
        raise DatasetConfigError(f"{where}.name: expected a domain name")
    layouts = None
    if data.get("layouts") is not None:
        raw = _check_keys(f"{where}.layouts", data["layouts"], set(data["layouts"]))
        layouts = {str(k): _layout(f"{where}.layouts.{k}", v) for k, v in raw.items()}
    rules = data.get("heldout") or []
    if not isinstance(rules, list):
        raise DatasetConfigError(f"{where}.heldout: expected a list of {{init, goal}} rules")
    heldout = tuple(
        HeldoutRule(**_check_keys(f"{where}.heldout[{i}]", rule, {"init", "goal"}))
        for i, rule in enumerate(rules)
    )
    return DomainConfig(name=data["name"], layouts=layouts, heldout=heldout)


def parse_config(data: Any, where: str = "config") -> DatasetConfig:
    """Check and convert ``yaml.safe_load`` output."""
    data = _check_keys(where, data, {"domains", "seed", "folds", "test_fold", "size_bins"})
    domains = data.get("domains")
    if not isinstance(domains, list) or not domains:
        raise DatasetConfigError(f"{where}.domains: expected a non-empty list")
    parsed = tuple(_domain(f"{where}.domains[{i}]", d) for i, d in enumerate(domains))
    names = [d.name for d in parsed]
    if len(set(names)) != len(names):
        raise DatasetConfigError(f"{where}.domains: a domain is listed twice: {names}")
    config = DatasetConfig(
        domains=parsed,
        seed=int(data.get("seed", 42)),
        folds=int(data.get("folds", 5)),
        test_fold=int(data.get("test_fold", 4)),
        size_bins=tuple(int(b) for b in data.get("size_bins", (20, 40, 60, 80))),
    )
    if not 0 <= config.test_fold < config.folds:
        raise DatasetConfigError(f"{where}.test_fold must be in 0..{config.folds - 1}")
    if list(config.size_bins) != sorted(set(config.size_bins)) or not config.size_bins:
        raise DatasetConfigError(f"{where}.size_bins must be increasing")
    return config


def load_config(path: str | Path) -> DatasetConfig:
    from ..yamlconfig import read_yaml_mapping

    return parse_config(read_yaml_mapping(path, DatasetConfigError), where=str(path))
