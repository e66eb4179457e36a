"""What graded rows say, stage by stage, overall and broken down along the dataset's axes.

A verdict row holds ``parseable``, ``solvable`` and ``equivalent`` as true, false or null
(undecided: a time limit, an unsupported feature).  The stages form a chain: *solvable* counts
rows that parse and are solvable, *correct* rows that are also equivalent to the ground truth.
A null counts as not passed (a rate is never inflated by a guess) and is counted apart as
*undecided* when nothing earlier in the chain already failed.  The grader's ``status`` string is
deliberately not read here: its vocabulary may change, these three fields will not.

Breakdowns follow the paper: domain, abstractness class (explicit or abstract description of
the initial state, then of the goal) and size (initial + goal propositions of the ground truth,
in the bins of Table 1).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..benchmarks.planetarium import STAGES as STAGES  # the report modules read it here
from ..benchmarks.planetarium import passed, undecided
from ..dataset import splits
from .stats import Rate, holm, mcnemar_exact

#: The dataset's abstractness classes as the report prints them (``explicit to abstract``).
ABSTRACTNESS_CLASSES = tuple(c.replace("_", " ") for c in splits.ABSTRACTION_CLASSES)
#: The paper's size bins (Table 1), as the dataset names them.
SIZE_BINS = tuple(splits.size_bins())


def abstractness(row: dict[str, Any]) -> str:
    """The paper's four classes, e.g. ``explicit to abstract`` (initial state, then goal)."""
    return splits.abstraction(row).replace("_", " ")


@dataclass(frozen=True)
class Axis:
    """One way to split items: a key per row and, where it is known in advance, every value
    (so a class with no items still gets its row and its "no items" bar)."""

    name: str
    key: Callable[[dict[str, Any]], str]
    values: tuple[str, ...] = ()

    def universe(self, rows: Sequence[dict[str, Any]]) -> list[str]:
        seen = {self.key(row) for row in rows}
        return [*self.values, *sorted(seen - set(self.values))]


AXES = {
    "domain": Axis("domain", lambda row: row["domain"]),
    "abstractness": Axis("abstractness", abstractness, ABSTRACTNESS_CLASSES),
    "size": Axis("size", splits.size_bin, SIZE_BINS),
}


def rate(rows: Sequence[dict[str, Any]], mode: str, stage: str) -> Rate:
    """How many of ``rows`` pass ``stage`` under one grading mode."""
    return Rate(sum(passed(row[mode], stage) for row in rows), len(rows))


def n_undecided(rows: Sequence[dict[str, Any]], mode: str) -> int:
    return sum(undecided(row[mode]) for row in rows)


def cells(
    rows: Sequence[dict[str, Any]], axes: Sequence[Axis], universe_rows: Sequence[dict[str, Any]]
) -> list[tuple[tuple[str, ...], list[dict[str, Any]]]]:
    """The rows of every combination of the axes' values; values come from ``universe_rows``
    (all runs together) so every run reports the same cells, empty ones included."""
    universes = [axis.universe(universe_rows) for axis in axes]
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {
        combo: [] for combo in itertools.product(*universes)
    }
    for row in rows:
        groups[tuple(axis.key(row) for axis in axes)].append(row)
    return list(groups.items())


def item_key(row: dict[str, Any]) -> str:
    """An item's identity across runs: its id *and* its content, so two datasets that reuse an
    id for a different problem never pair up."""
    item = {k: v for k, v in row.items() if k in _ITEM_FIELDS}
    return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)


_ITEM_FIELDS = ("id", "domain", "natural_language", "problem_pddl", "is_placeholder")


@dataclass(frozen=True)
class Paired:
    """Two runs on the items both answered: each one's rate and where they disagree."""

    stage: str
    a: Rate
    b: Rate
    only_a: int
    only_b: int

    @property
    def difference(self) -> float | None:
        """B's rate minus A's, as a fraction of the shared items."""
        return (self.only_b - self.only_a) / self.a.n if self.a.n else None

    @property
    def p_value(self) -> float:
        return mcnemar_exact(self.only_a, self.only_b)


def paired(
    rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], mode: str, stage: str
) -> Paired:
    """Compare two runs item by item on the items they share (same id and same content)."""
    by_key = {item_key(row): row for row in rows_b}
    pairs = [(row, by_key[item_key(row)]) for row in rows_a if item_key(row) in by_key]
    a = [passed(x[mode], stage) for x, _ in pairs]
    b = [passed(y[mode], stage) for _, y in pairs]
    return Paired(
        stage=stage,
        a=Rate(sum(a), len(pairs)),
        b=Rate(sum(b), len(pairs)),
        only_a=sum(x and not y for x, y in zip(a, b, strict=True)),
        only_b=sum(y and not x for x, y in zip(a, b, strict=True)),
    )


def adjusted(comparisons: Sequence[Paired]) -> list[float]:
    """Holm-adjusted p-values over a family of comparisons (one report, one grading mode)."""
    return holm([c.p_value for c in comparisons])
