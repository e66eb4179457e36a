"""Report tables as data: rendered as Markdown for reading, exported as CSV and JSON for plotting.

Every table is built once as raw values (counts, fractions, p-values) and only formatted at the
edge, so the Markdown a reader sees and the CSV/JSON someone re-plots cannot disagree.  A
:class:`~planetarium.llm.stats.Rate` cell becomes ``45.0% [25.8, 65.8] (9/20)`` in Markdown and
five columns (``k``, ``n``, ``rate``, ``ci_low``, ``ci_high``) in the exports.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .breakdown import AXES, STAGES, Axis, adjusted, cells, n_undecided, paired, rate
from .identity import RunIdentity
from .stats import Rate

MODE_TITLES = {"strict": "strict typing", "relaxed": "relaxed typing",
               "anchored": "strict typing, objects the description names keep their names"}
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
    """A graded run as the tables see it: its label, identity and joined item/verdict rows."""

    label: str
    identity: RunIdentity
    rows: list[dict[str, Any]]


def runs_table(runs: Sequence[ReportRun], n_missing: Sequence[int]) -> Table:
    """Who is who: every identity field behind each label."""
    rows = [
        (run.label, run.identity.benchmark, run.identity.setting, run.identity.model, run.identity.adapter,
         run.identity.backend, run.identity.config_name, run.identity.dataset, run.identity.split,
         run.identity.dataset_hash, len(run.rows), missing, run.identity.graded_by,
         str(run.identity.run_dir))
        for run, missing in zip(runs, n_missing, strict=True)
    ]
    columns = ("run", "benchmark", "setting", "model", "adapter", "backend", "config", "dataset", "split",
               "dataset hash", "graded", "unanswered", "graded by", "run directory")
    return Table("runs", "Runs", columns, rows)


def rate_table(runs: Sequence[ReportRun], mode: str, axes: Sequence[Axis]) -> Table:
    """Stage rates per run and per combination of ``axes`` (none: overall), with n and 95%
    Wilson intervals; combinations without items in a run show "no items"."""
    everything = [row for run in runs for row in run.rows]
    rows = []
    for run in runs:
        for combo, members in cells(run.rows, axes, everything):
            rows.append((run.label, *combo, len(members),
                         *(rate(members, mode, stage) for stage in STAGES),
                         n_undecided(members, mode)))
    by = " × ".join(axis.name for axis in axes)
    name = "_".join(["by", *(axis.name for axis in axes)] if axes else ["overall"])
    title = f"{'By ' + by if axes else 'Overall'} ({MODE_TITLES[mode]})"
    columns = ("run", *(axis.name for axis in axes), "n", *STAGES, "undecided")
    return Table(f"{name}_{mode}", title, columns, rows)


def modes_table(runs: Sequence[ReportRun], modes: Sequence[str]) -> Table:
    """Correct answers per run under each grading mode, side by side (same items, same n)."""
    rows = [(run.label, len(run.rows), *(rate(run.rows, mode, "correct") for mode in modes))
            for run in runs]
    return Table("correct_by_mode", "Correct under each grading mode",
                 ("run", "n", *(MODE_TITLES[mode] for mode in modes)), rows)


def paired_table(runs: Sequence[ReportRun], mode: str) -> Table | None:
    """Every pair of runs that share items: rates on the shared items, the difference and the
    exact McNemar p-value, raw and Holm-adjusted over all pairs compared at the same stage (one
    question each: "which run parses / solves / is correct more often"); None without pairs."""
    rows = []
    for stage in STAGES:
        found = [
            (first.label, second.label, comparison)
            for first, second in itertools.combinations(runs, 2)
            if (comparison := paired(first.rows, second.rows, mode, stage)).a.n
        ]
        for (a, b, c), p_holm in zip(found, adjusted([c for _, _, c in found]), strict=True):
            rows.append((a, b, stage, c.a.n, c.a, c.b, c.difference, c.only_a, c.only_b,
                         c.p_value, p_holm, _conclusion(a, b, c.difference, p_holm)))
    if not rows:
        return None
    columns = ("A", "B", "stage", "shared items", "A rate", "B rate", "B − A", "only A",
               "only B", "p (exact McNemar)", "p (Holm)", "at 5% (Holm)")
    formats = {"B − A": lambda d: f"{100 * d:+.1f} pp", "p (exact McNemar)": _p,
               "p (Holm)": _p}
    title = f"Paired comparisons ({MODE_TITLES[mode]})"
    return Table(f"paired_{mode}", title, columns, rows, formats)


def _p(value: float) -> str:
    return "<0.0001" if value < 1e-4 else f"{value:.4f}"


def _conclusion(a: str, b: str, difference: float, p_value: float) -> str:
    if p_value >= SIGNIFICANCE or difference == 0:
        return "no significant difference"
    return f"{b} better" if difference > 0 else f"{a} better"


#: The breakdowns of the report, in order: overall, each axis, then the paper's cross panels.
BREAKDOWNS: tuple[tuple[Axis, ...], ...] = (
    (),
    (AXES["domain"],),
    (AXES["abstractness"],),
    (AXES["size"],),
    (AXES["domain"], AXES["abstractness"]),
    (AXES["domain"], AXES["size"]),
)
