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
dataset.  Loading follows the shared rules of :mod:`planetarium.config`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import ConfigError, at_least, build, load, setting


@dataclass(frozen=True)
class LayoutConfig:
    """Where one layout's parameters come from: an explicit list, or its space() arguments."""

    params: tuple[Any, ...] | None = None
    space: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.params is not None and self.space:
            raise ConfigError("give either params or space, not both", key="params")


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


def _increasing(bins: tuple[int, ...]) -> str | None:
    ok = bins and list(bins) == sorted(set(bins)) and bins[0] > 0
    return None if ok else "a non-empty, strictly increasing list of positive sizes"


@dataclass(frozen=True)
class DatasetConfig:
    domains: tuple[DomainConfig, ...] = setting(check=lambda d: None if d else "a non-empty list")
    seed: int = 42
    folds: int = setting(5, check=at_least(2))
    test_fold: int = setting(4, check=at_least(0))
    size_bins: tuple[int, ...] = setting((20, 40, 60, 80), check=_increasing)

    def __post_init__(self) -> None:
        if self.test_fold >= self.folds:
            raise ConfigError(f"expected a fold in 0..{self.folds - 1}, got {self.test_fold}",
                              key="test_fold")
        names = [d.name for d in self.domains]
        if len(set(names)) != len(names):
            raise ConfigError(f"a domain is listed twice: {names}", key="domains")


def parse_config(data: Any, where: str = "config") -> DatasetConfig:
    """Check and convert ``yaml.safe_load`` output."""
    return build(DatasetConfig, data, source=where)


def load_config(path: str | Path) -> DatasetConfig:
    return load(DatasetConfig, path)
