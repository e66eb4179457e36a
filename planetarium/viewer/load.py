"""Graded run folders, as the viewer sees them: the only viewer module that knows their layout.

The files themselves are read by :func:`planetarium.llm.report.load_run` (the report's loader:
items, completions and verdicts joined per item), so a change of the run-folder layout is made
in one place for the report and the viewer alike; this module only turns its records into
:class:`Item` s shared across runs and knows where an explanation sits in a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..benchmarks.planetarium import ALL_MODES
from ..dataset.splits import size_bin
from ..llm.breakdown import abstractness, item_key, passed
from ..llm.identity import assign_labels
from ..llm.report import load_run

#: The grading mode the table shows and the pictures follow (the paper's headline).
MAIN_MODE = "strict"
MODES = tuple(ALL_MODES)


@dataclass(frozen=True)
class Answer:
    """One run's answer to one item and its verdict per grading mode."""

    output: str
    finish_reason: str | None
    error: str | None
    verdicts: dict[str, dict[str, Any]]
    #: the run's whole result row (other benchmarks: their shared keys and ``details``)
    result: dict[str, Any] | None = None

    def explanation(self, mode: str = MAIN_MODE) -> dict[str, Any] | None:
        """The grader's explanation of a verdict (``explanation`` in the result row), if any."""
        found = self.verdicts.get(mode, {}).get("explanation")
        return found if isinstance(found, dict) else None

    def status(self, mode: str = MAIN_MODE) -> str:
        """Where the answer stopped: ``correct``, ``not parseable``, ``unsolvable``, ``not
        equivalent``, or ``undecided (timeout)`` and the like for a null verdict."""
        verdict = self.verdicts.get(mode)
        if verdict is None and self.result is not None and not self.verdicts:
            return _shared_status(self.result)
        if verdict is None:
            return "not graded"
        if passed(verdict, "correct"):
            return "correct"
        for field, failed in (("parseable", "not parseable"), ("solvable", "unsolvable"),
                              ("equivalent", "not equivalent")):
            if verdict.get(field) is False:
                return failed
            if verdict.get(field) is None:
                return f"undecided ({verdict.get('status') or 'no verdict'})"
        return "correct"

    def categories(self, mode: str = MAIN_MODE) -> list[str]:
        explanation = self.explanation(mode)
        found = explanation.get("categories") if explanation else None
        return [str(c) for c in found] if isinstance(found, list) else []


def _shared_status(result: dict[str, Any]) -> str:
    """A result row in the shared schema: the benchmark's own word when it has one."""
    own = result.get("arb_status")
    if result.get("correct") is True:
        return "correct"
    if result.get("correct") is False:
        return str(own or "wrong")
    return f"undecided ({own or result.get('status') or 'no verdict'})"


@dataclass(frozen=True)
class Item:
    """A dataset item and each run's answer to it (None where a run did not answer it)."""

    row: dict[str, Any]
    answers: tuple[Answer | None, ...]

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def domain(self) -> str:
        return str(self.row["domain"])

    @property
    def abstractness(self) -> str:
        return abstractness(self.row) if "init_is_abstract" in self.row else "—"

    @property
    def size(self) -> str:
        return size_bin(self.row) if "init_num_propositions" in self.row else "—"


@dataclass(frozen=True)
class Runs:
    """The runs shown together and the union of their items, first run's order first."""

    labels: tuple[str, ...]
    paths: tuple[Path, ...]
    n_missing: tuple[int, ...]
    items: tuple[Item, ...]


def load_runs(run_dirs: Sequence[str | Path], labels: Sequence[str] = ()) -> Runs:
    """Read graded runs; items pair up across runs by id *and* content (as the report does)."""
    records = [load_run(path) for path in run_dirs]
    names = assign_labels([r.identity for r in records], labels)
    rows: dict[str, dict[str, Any]] = {}
    answers: dict[str, list[Answer | None]] = {}
    for index, record in enumerate(records):
        for graded in record.rows:
            key = item_key(graded)
            rows.setdefault(key, {k: v for k, v in graded.items() if k not in ALL_MODES})
            completion = record.completions.get(graded["id"], {})
            answers.setdefault(key, [None] * len(records))[index] = Answer(
                output=str(completion.get("output") or ""),
                finish_reason=completion.get("finish_reason"),
                error=completion.get("error"),
                verdicts={mode: graded[mode] for mode in MODES if isinstance(graded.get(mode), dict)},
                result=graded,
            )
    return Runs(
        labels=tuple(names),
        paths=tuple(Path(p) for p in run_dirs),
        n_missing=tuple(r.n_missing for r in records),
        items=tuple(Item(rows[key], tuple(answers[key])) for key in rows),
    )
