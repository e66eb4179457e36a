"""Report tables as data: rendered as Markdown for reading, exported as CSV and JSON for plotting.

Every table is built once as raw values (counts, fractions, p-values) and only formatted at the
edge, so the Markdown a reader sees and the CSV/JSON someone re-plots cannot disagree.  A
:class:`~.stats.Rate` cell becomes ``45.0% [25.8, 65.8] (9/20)`` in Markdown and five columns
(``k``, ``n``, ``rate``, ``ci_low``, ``ci_high``) in the exports.

The pieces here know nothing of any one benchmark: a graded run is a :class:`ReportRun` (its
label and its rows: each item's fields with its ``verdicts.jsonl`` line over them), a breakdown
is a list of :class:`Axis`, and what "passed" means is a function the caller gives.  The default
tables of every benchmark (:func:`default_tables`) read only the shared result schema: the
metric chain (``metrics``: a metric counts an item that passed it and every metric before it),
the ``groups`` the benchmark breaks results down by, and the grading ``status`` (an item whose
status is not ``decided`` counts as not passed, and is counted apart as *undecided*).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grading import Status
from .stats import Rate, holm, mcnemar_exact

Row = dict[str, Any]
#: Below this p-value (Holm-adjusted) a paired comparison names the better run.
SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class Table:
    """A titled table; ``formats`` turns raw values of some columns into Markdown text."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    formats: dict[str, Callable[[Any], str]] = field(default_factory=dict)

    def markdown(self) -> str:
        def show(column: str, value: Any) -> str:
            if value is None:
                return "—"
            return self.formats.get(column, str)(value)

        lines = [self.columns, ("---",) * len(self.columns)]
        lines += [tuple(show(c, v) for c, v in zip(self.columns, row, strict=True)) for row in self.rows]
        return "\n".join("| " + " | ".join(cells_) + " |" for cells_ in lines)

    def records(self) -> list[dict[str, Any]]:
        """One flat mapping per row; a rate column becomes five plain columns."""
        records = []
        for row in self.rows:
            record: dict[str, Any] = {}
            for column, value in zip(self.columns, row, strict=True):
                if isinstance(value, Rate):
                    low, high = value.interval or (None, None)
                    record.update({f"{column}_k": value.k, f"{column}_n": value.n,
                                   f"{column}_rate": value.value,
                                   f"{column}_ci_low": low, f"{column}_ci_high": high})
                else:
                    record[column] = value
            records.append(record)
        return records

    def csv(self) -> str:
        records = self.records()
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(records[0]) if records else self.columns,
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue()

    def json(self) -> str:
        data = {"name": self.name, "title": self.title, "rows": self.records()}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class ReportRun:
    """A graded run as tables, figures and notes see it.

    ``rows``: one per graded item, the item's fields (``items.jsonl``) with its result
    (``verdicts.jsonl``: ``status``, ``correct``, ``metrics``, ``groups``, ``reason`` and the
    benchmark's own keys) over them; ``setting``: how figures caption the run (``zero-shot`` or
    ``fine-tuned``); ``completions``: the model's answers by item id (``output``,
    ``finish_reason``, ``error``, ...); ``items``: the items alone (``items.jsonl``) by id.
    """

    label: str
    rows: list[Row]
    setting: str = ""
    completions: Mapping[str, Row] = field(default_factory=dict)
    items: Mapping[str, Row] = field(default_factory=dict)

    def item(self, row: Row) -> Row:
        """The item a graded row is about, without its result (the row itself where the run
        keeps no items apart)."""
        return self.items.get(str(row.get("id")), row)


@dataclass(frozen=True)
class Axis:
    """One way to split items: a key per row and, where it is known in advance, every value
    (so a class with no items still gets its row and its "no items" bar)."""

    name: str
    key: Callable[[Row], str]
    values: tuple[str, ...] = ()

    def universe(self, rows: Sequence[Row]) -> list[str]:
        seen = {self.key(row) for row in rows}
        return [*self.values, *sorted(seen - set(self.values))]


def group_axis(name: str) -> Axis:
    """The axis of one of the result's ``groups`` (what :attr:`Benchmark.breakdowns` names)."""
    return Axis(name, lambda row: str((row.get("groups") or {}).get(name)))


def cells(rows: Sequence[Row], axes: Sequence[Axis], universe_rows: Sequence[Row], *,
          every_combination: bool = True) -> list[tuple[tuple[str, ...], list[Row]]]:
    """The rows of each combination of the axes' values.  Values come from ``universe_rows``
    (all runs together), so every run reports the same cells, empty ones included: every
    combination of the axes' values, or (``every_combination=False``) those some row has."""
    if every_combination:
        combos = list(itertools.product(*(axis.universe(universe_rows) for axis in axes)))
    else:
        combos = sorted({tuple(axis.key(row) for axis in axes) for row in universe_rows})
    groups: dict[tuple[str, ...], list[Row]] = {combo: [] for combo in combos}
    for row in rows:
        groups.setdefault(tuple(axis.key(row) for axis in axes), []).append(row)
    return list(groups.items())


def breakdown_table(name: str, title: str, runs: Sequence[ReportRun], axes: Sequence[Axis],
                    columns: Sequence[str], measure: Callable[[list[Row]], tuple[Any, ...]], *,
                    every_combination: bool = True) -> Table:
    """One row per run and combination of ``axes`` (none: one row per run): the run's label,
    the combination, n, then ``measure(rows)`` under ``columns``."""
    everything = [row for run in runs for row in run.rows]
    rows = [(run.label, *combo, len(members), *measure(members))
            for run in runs
            for combo, members in cells(run.rows, axes, everything,
                                        every_combination=every_combination)]
    return Table(name, title, ("run", *(axis.name for axis in axes), "n", *columns), rows)


def chain_passed(metrics: Mapping[str, Any], chain: Sequence[str], metric: str) -> bool:
    """Whether ``metric`` and every metric before it in ``chain`` are true (a null counts as
    not passed: a rate is never inflated by a guess)."""
    return all(metrics.get(m) is True for m in chain[: chain.index(metric) + 1])


def metric_rate(rows: Sequence[Row], chain: Sequence[str], metric: str) -> Rate:
    """Rows that pass ``metric`` and every metric before it in the chain."""
    return Rate(sum(chain_passed(row["metrics"], chain, metric) for row in rows), len(rows))


def n_undecided(rows: Sequence[Row]) -> int:
    """Rows whose grading status is not ``decided`` (time limit, unreadable item, ...)."""
    return sum(row["status"] != Status.DECIDED.value for row in rows)


def statuses(rows: Sequence[Row]) -> str:
    counts = Counter(row["status"] for row in rows)
    return ", ".join(f"{status} {count}" for status, count in sorted(counts.items()))


@dataclass(frozen=True)
class Paired:
    """Two runs on the items both answered: each one's rate and where they disagree."""

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


def paired(run_a: ReportRun, run_b: ReportRun, key: Callable[[Row], str],
           passes: Callable[[Row], bool]) -> Paired:
    """Compare two runs item by item on the items they share (``key``: an item's identity,
    read from the item alone)."""
    by_key = {key(run_b.item(row)): row for row in run_b.rows}
    keyed = [(key(run_a.item(row)), row) for row in run_a.rows]
    pairs = [(row, by_key[k]) for k, row in keyed if k in by_key]
    a = [passes(x) for x, _ in pairs]
    b = [passes(y) for _, y in pairs]
    return Paired(a=Rate(sum(a), len(pairs)), b=Rate(sum(b), len(pairs)),
                  only_a=sum(x and not y for x, y in zip(a, b, strict=True)),
                  only_b=sum(y and not x for x, y in zip(a, b, strict=True)))


def paired_table(name: str, title: str, runs: Sequence[ReportRun], key: Callable[[Row], str],
                 stages: Mapping[str, Callable[[Row], bool]]) -> Table | None:
    """Every pair of runs that share items: rates on the shared items, the difference and the
    exact McNemar p-value, raw and Holm-adjusted over all pairs compared at the same stage (one
    question each: "which run passes this stage more often"); None without pairs."""
    rows = []
    for stage, passes in stages.items():
        found = [(first.label, second.label, comparison)
                 for first, second in itertools.combinations(runs, 2)
                 if (comparison := paired(first, second, key, passes)).a.n]
        p_holm = holm([c.p_value for _, _, c in found])
        for (a, b, c), p in zip(found, p_holm, strict=True):
            rows.append((a, b, stage, c.a.n, c.a, c.b, c.difference, c.only_a, c.only_b,
                         c.p_value, p, _conclusion(a, b, c.difference, p)))
    if not rows:
        return None
    columns = ("A", "B", "stage", "shared items", "A rate", "B rate", "B − A", "only A",
               "only B", "p (exact McNemar)", "p (Holm)", "at 5% (Holm)")
    formats = {"B − A": lambda d: f"{100 * d:+.1f} pp", "p (exact McNemar)": _p, "p (Holm)": _p}
    return Table(name, title, columns, rows, formats)


def _p(value: float) -> str:
    return "<0.0001" if value < 1e-4 else f"{value:.4f}"


def _conclusion(a: str, b: str, difference: float | None, p_value: float) -> str:
    if p_value >= SIGNIFICANCE or not difference:
        return "no significant difference"
    return f"{b} better" if difference > 0 else f"{a} better"


def item_key(item: Row) -> str:
    """An item's identity across runs: its whole row, so two datasets that reuse an id for a
    different question never pair up."""
    return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)


# --- what every benchmark gets by default ------------------------------------------------------


def default_tables(name: str, chain: Sequence[str], breakdowns: Sequence[Sequence[str]],
                   runs: Sequence[ReportRun], key: Callable[[Row], str]) -> list[Table]:
    """Overall rates along the metric chain, one table per breakdown (each combination of group
    values some run has; a run without items there says "no items"), and paired comparisons
    of the runs on their shared items."""

    def measure(rows: list[Row]) -> tuple[Any, ...]:
        return (*(metric_rate(rows, chain, m) for m in chain), n_undecided(rows), statuses(rows))

    columns = (*chain, "undecided", "statuses")
    tables = [breakdown_table("overall", f"Overall ({name})", runs, (), columns, measure)]
    tables += [breakdown_table(f"by_{'_'.join(axes)}", f"By {' × '.join(axes)} ({name})", runs,
                               [group_axis(axis) for axis in axes], columns, measure,
                               every_combination=False)
               for axes in breakdowns]
    stages = {metric: _chain_passes(chain, metric) for metric in chain}
    comparisons = paired_table("paired", f"Paired comparisons ({name})", runs, key, stages)
    return tables + ([comparisons] if comparisons else [])


def _chain_passes(chain: Sequence[str], metric: str) -> Callable[[Row], bool]:
    return lambda row: chain_passed(row["metrics"], chain, metric)


def how_to_read(chain: Sequence[str]) -> str:
    """The report's note on reading rates, for a benchmark whose results are its metric chain."""
    return (
        "Each rate is the share of graded items that passed the metric and every one before it "
        f"({' → '.join(chain)}), shown as `rate [95% Wilson interval] (passed/n)`; *undecided* "
        "counts items whose grading status is not `decided` (time limit, unreadable question, "
        "grader error): they count as not passed and are listed by status. Paired comparisons "
        "use only the items both runs answered; the exact McNemar test looks at the items where "
        "exactly one of the two passed, and *p (Holm)* adjusts for the number of pairs compared "
        "at the same metric."
    )


def nothing_correct(run: ReportRun, chain: Sequence[str]) -> str:
    """Where the answers of a run with no correct item stopped along the metric chain, and the
    grader's most common reasons."""
    rows = run.rows
    passed = [metric_rate(rows, chain, metric).k for metric in chain]
    steps = [f"{len(rows) - passed[0]} fail {chain[0]}"]
    steps += [f"{before - after} pass {chain[i]} but fail {chain[i + 1]}"
              for i, (before, after) in enumerate(itertools.pairwise(passed))]
    return (f"Of {len(rows)} graded answers, {', '.join(steps)} ({n_undecided(rows)} "
            f"undecided). {common_reasons(row.get('reason') for row in rows)}")


def common_reasons(reasons: Any, shown: int = 2) -> str:
    """``The grader's most common reasons: "..." (n×); ...``."""
    counts = Counter(reason or "no reason given" for reason in reasons)
    said = "; ".join(f"\"{clip(reason)}\" ({count}×)" for reason, count in counts.most_common(shown))
    return f"The grader's most common reasons: {said}."


def clip(text: Any, limit: int = 90) -> str:
    """``text`` on one line, cut with an ellipsis past ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
