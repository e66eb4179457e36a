"""Scoring a selection of questions into a results file, the part ``acp score`` and ``arb
score`` share.

The file is locked while written (:func:`planetarium.resume.open_output`: a second command on
the same ``--out`` is refused before it can touch the first one's rows) and gets one whole row
per question, in question order, flushed as each is graded, so ``--resume`` keeps the rows a
killed run wrote (:func:`planetarium.resume.kept_rows`) and grades only the questions after
them.  An answered question is graded by the benchmark on the one item loop; one without a
response gets the command's row for it, graded by nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any, Generic

import click

from ..benchmarks import ItemGrader, ItemResult, Row
from ..benchmarks.base import Benchmark, ConfigT
from ..resume import has_keys, kept_rows, open_output

#: ``--answered-only`` of the score commands: a sample of answers scored as what it is.
ANSWERED_ONLY = click.option(
    "--answered-only", is_flag=True,
    help="Score only the selected questions that have a response (a sample), and say so in "
         "the headline; by default every selected question gets a row, 0 when unanswered.")


def answered_only_line(answered: int, selected: int) -> str:
    """The headline of an ``--answered-only`` scoring: what the table's figures are over."""
    return (f"answered only: {answered} of the {selected} selected questions have a response; "
            f"the table and the results file hold those {answered} alone")


@dataclass(frozen=True)
class ScoreFile:
    """What one command's results file holds: ``writer`` names the command (in "another
    ``writer`` is writing it"); ``graded(item, result)`` is the row of an answered question,
    ``unanswered(item)`` the row of one without a response; ``item_key`` / ``row_key`` say
    which question a row answers (what resuming checks) and ``row_keys`` the keys every row
    has."""

    writer: str
    graded: Callable[[Row, ItemResult], dict[str, Any]]
    unanswered: Callable[[Row], dict[str, Any]]
    item_key: Callable[[Row], Hashable]
    row_key: Callable[[dict[str, Any]], Hashable]
    row_keys: tuple[str, ...]


@dataclass(frozen=True)
class Grading(Generic[ConfigT]):
    """A benchmark, its config, and the loop's ``workers`` and progress bar."""

    benchmark: Benchmark[ConfigT]
    config: ConfigT
    workers: int | None = None
    progress: bool = False


def score_to_file(grading: Grading[ConfigT], items: Sequence[Row], answers: Mapping[str, Any],
                  form: ScoreFile, out: str, *, resume: bool = False) -> list[dict[str, Any]]:
    """Every row of ``out`` once each of ``items`` has one, in order: those a killed run left
    (``resume``), then one per remaining item (``answers``: item id -> response, as the
    responses file holds it).

    Raises :class:`planetarium.resume.OutputBusyError` when another command writes ``out``,
    ``ValueError`` (saying "cannot resume") when its rows are not the first items', ``OSError``
    when it cannot be written.
    """
    with closing(open_output(out, resume, form.writer)) as sink:
        rows = kept_rows(out, [form.item_key(item) for item in items], form.row_key,
                         has_keys(*form.row_keys)) if resume else []
        for row in _rows(grading, items[len(rows):], answers, form):
            sink.write((json.dumps(row) + "\n").encode("utf-8"))
            sink.flush()  # whole rows as they come: what --resume keeps after a kill
            rows.append(row)
    return rows


def _rows(grading: Grading[ConfigT], items: Sequence[Row], answers: Mapping[str, Any],
          form: ScoreFile) -> Iterator[dict[str, Any]]:
    """One row per item, in order: the answered ones graded on the loop (results come back in
    input order, so each answered item takes the next result)."""
    answered = [item for item in items if str(item["id"]) in answers]
    with ItemGrader(grading.benchmark, grading.config, workers=grading.workers) as grader:
        results = grader.grade_many(answered, [answers[str(item["id"])] for item in answered],
                                    total=len(answered), progress=grading.progress,
                                    label=form.writer, unit="question")
        for item in items:
            yield (form.graded(item, next(results)) if str(item["id"]) in answers
                   else form.unanswered(item))
