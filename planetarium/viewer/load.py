"""Graded run folders, as the viewer sees them: the only viewer module that knows their layout.

The files themselves are read by :func:`planetarium.llm.report.load_run` (the report's loader:
items, completions and verdicts joined per item), so a change of the run-folder layout is made
in one place for the report and the viewer alike.  What an item and each answer show is asked
of the runs' benchmark (:meth:`~planetarium.benchmarks.Benchmark.view_item`,
:meth:`~planetarium.benchmarks.Benchmark.view_answer`); this module pairs the items of several
runs (by the benchmark's :meth:`~planetarium.benchmarks.Benchmark.item_key`, as the report
does) and keeps each run's answer beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..benchmarks import get_benchmark
from ..config import build
from ..llm.identity import ReportError, assign_labels
from ..llm.report import load_run
from ..presentation.pages import AnswerView, ItemView


@dataclass(frozen=True)
class Answer:
    """One run's answer to one item: the model's text and what the benchmark shows of it."""

    output: str
    finish_reason: str | None
    error: str | None
    view: AnswerView


@dataclass(frozen=True)
class Item:
    """An item (its ``items.jsonl`` row), what the benchmark shows of it, and each run's answer
    (None where a run did not answer it)."""

    row: dict[str, Any]
    view: ItemView
    answers: tuple[Answer | None, ...]

    @property
    def id(self) -> str:
        return str(self.row["id"])


@dataclass(frozen=True)
class Runs:
    """The runs shown together and the union of their items, first run's order first."""

    benchmark: str
    labels: tuple[str, ...]
    paths: tuple[Path, ...]
    n_missing: tuple[int, ...]
    items: tuple[Item, ...]


def load_runs(run_dirs: Sequence[str | Path], labels: Sequence[str] = ()) -> Runs:
    """Read graded runs of one benchmark; items pair up across runs by the benchmark's item key
    (by default the whole item: id and content)."""
    records = [load_run(path) for path in run_dirs]
    names = assign_labels([r.identity for r in records], labels)
    found = sorted({r.identity.benchmark for r in records})
    if len(found) > 1:
        raise ReportError(f"these runs are of different benchmarks ({', '.join(found)}); view "
                          "each benchmark's runs on their own")
    benchmark = get_benchmark(found[0])
    items: dict[str, tuple[dict[str, Any], ItemView]] = {}
    answers: dict[str, list[Answer | None]] = {}
    for index, (path, record) in enumerate(zip(run_dirs, records, strict=True)):
        config = build(benchmark.config_type, record.config["benchmark"], source=str(path),
                       key="benchmark")
        for graded in record.rows:
            item = record.items[str(graded["id"])]
            key = benchmark.item_key(item)
            if key not in items:
                items[key] = (item, benchmark.view_item(config, item, graded.get("groups") or {}))
            completion = record.completions.get(graded["id"], {})
            output = str(completion.get("output") or "")
            answers.setdefault(key, [None] * len(records))[index] = Answer(
                output=output, finish_reason=completion.get("finish_reason"),
                error=completion.get("error"), view=benchmark.view_answer(graded, output))
    return Runs(
        benchmark=benchmark.name,
        labels=tuple(names),
        paths=tuple(Path(p) for p in run_dirs),
        n_missing=tuple(r.n_missing for r in records),
        items=tuple(Item(row, view, tuple(answers[key])) for key, (row, view) in items.items()),
    )
