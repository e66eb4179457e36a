"""The report tables of any benchmark, built from the shared result schema alone.

Every benchmark declares its metric chain and its breakdown axes
(:class:`~planetarium.benchmarks.Benchmark`); this module turns graded rows into the same
:class:`~.tables.Table` objects the Planetarium report uses: rates with n and 95% Wilson
intervals, overall and per combination of group values, and the count of each status (a
``timeout`` is counted apart, never as a wrong answer).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..benchmarks import Benchmark
from ..grading import Status
from .stats import Rate
from .tables import ReportRun, Table


def metric_rate(rows: Sequence[dict[str, Any]], metrics: Sequence[str], metric: str) -> Rate:
    """Rows that pass ``metric`` and every metric before it in the chain."""
    chain = metrics[: metrics.index(metric) + 1]
    return Rate(sum(all(row["metrics"].get(m) is True for m in chain) for row in rows), len(rows))


def _statuses(rows: Sequence[dict[str, Any]]) -> str:
    counts = Counter(row["status"] for row in rows)
    return ", ".join(f"{status} {count}" for status, count in sorted(counts.items()))


def _row(rows: Sequence[dict[str, Any]], metrics: Sequence[str]) -> tuple[Any, ...]:
    return (len(rows), *(metric_rate(rows, metrics, m) for m in metrics),
            sum(row["status"] != Status.DECIDED.value for row in rows), _statuses(rows))


def benchmark_tables(benchmark: Benchmark, runs: Sequence[ReportRun]) -> list[Table]:
    """Overall rates, then one table per breakdown of the benchmark."""
    metrics = benchmark.metrics
    tail = ("n", *metrics, "undecided", "statuses")
    tables = [Table("overall", f"Overall ({benchmark.name})", ("run", *tail),
                    [(run.label, *_row(run.rows, metrics)) for run in runs])]
    for axes in benchmark.breakdowns:
        rows = []
        for run in runs:
            groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
            for row in run.rows:
                groups.setdefault(tuple(str(row["groups"].get(a)) for a in axes), []).append(row)
            rows += [(run.label, *combo, *_row(members, metrics))
                     for combo, members in sorted(groups.items())]
        tables.append(Table(f"by_{'_'.join(axes)}", f"By {' × '.join(axes)} ({benchmark.name})",
                            ("run", *axes, *tail), rows))
    return tables
