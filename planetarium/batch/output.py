"""What ``grade --batch`` keeps of its results file: the counts its summary and exit status are
made of (:class:`Tally`), and the rows a killed batch left for ``--resume``
(:func:`resume_output`, :func:`skip_done`, read and checked by :mod:`planetarium.resume`).

Rows are written in input order, so the k-th row answers the k-th item: resuming skips exactly
as many items as there are rows, whatever their ids (missing, repeated, bad lines), after
checking each row's id and ``input_sha256`` against its line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import resume
from ..grading import Status
from ..resume import DoneRow, id_key
from .items import InputLine, item_key


@dataclass
class Tally:
    """Counts over result rows: what a batch's summary and exit status are made of."""

    rows: int = 0
    parseable: int = 0
    solvable: int = 0
    equivalent: int = 0
    correct: int = 0
    statuses: Counter[Status] = field(default_factory=Counter)

    def add(self, row: dict[str, Any]) -> None:
        """Count one row (:meth:`GradeResult.to_dict` form, or read back from a file)."""
        self.rows += 1
        self.parseable += row.get("parseable") is True
        self.solvable += row.get("solvable") is True
        self.equivalent += row.get("equivalent") is True
        self.correct += row.get("correct") is True
        self.statuses[Status(row["status"])] += 1


@dataclass
class PartialOutput:
    """The rows a batch's output already holds (in input order) and their counts."""

    rows: list[DoneRow] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)


_STATUSES = frozenset(status.value for status in Status)


def is_result_row(row: dict[str, Any]) -> bool:
    """A grading result row: an ``id``, a known ``status`` and a text ``input_sha256`` if any
    (rows of ``grade --batch``, and ``eval grade``'s verdicts, which share the status words)."""
    return ("id" in row and row.get("status") in _STATUSES
            and isinstance(row.get("input_sha256", ""), str))


def resume_output(path: str | Path) -> PartialOutput:
    """The rows already in a partial output, for :func:`skip_done`, and their :class:`Tally`.

    A torn last line is cut off (its item is graded again); lines that are not result rows are
    a ``ValueError``: that file is not this command's output.
    """
    done = PartialOutput()
    for _, row in resume.done_rows(path, is_result_row):
        done.rows.append(DoneRow(None if row["id"] is None else id_key(row["id"]),
                                 row.get("input_sha256")))
        done.tally.add(row)
    return done


def skip_done(lines: Iterable[InputLine], done: list[DoneRow], out: str) -> Iterator[InputLine]:
    """The input lines after the first ``len(done)``, checked against those rows
    (:func:`planetarium.resume.skip_done`, ids by :func:`.items.item_key`)."""
    return resume.skip_done(lines, done, out, lambda line: item_key(line.item))
