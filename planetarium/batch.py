"""Grade many pairs in parallel without letting one bad item stop or stall the batch.

The pairs run through the one item loop (:mod:`planetarium.loop`): each gets one deadline of
``timeout_s`` wall seconds, made where it runs; a worker silent for longer than that (plus a
grace period) is killed, its item reported as ``timeout`` and the rest of its chunk handed out
again.  Results come back in input order.

Workers die with the parent: on Linux the kernel kills them when it exits (``PR_SET_PDEATHSIG``),
and everywhere a worker waiting for work notices that its parent is gone within a second.  A
killed batch therefore leaves nothing behind, and :func:`resume_output` with :func:`skip_done`
lets a rerun skip exactly the items its partial output already holds (rows are in input order).
Workers start only as work needs them, at most :func:`max_workers`.  Each worker reads a ground
truth once (the process's memo, :mod:`planetarium.grading.truths`), however many pairs share it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from .grading import (
    GradeOptions,
    GradeResult,
    Stage,
    Status,
    grade,
    grade_correct,
    prepared_truth,
)
from .jsonl import JsonLineError, decode, numbered_lines
from .limits import Deadline, collector_paused, deadline_for
from .loop import GRACE_S, MAX_WORKERS, ItemLoop, max_workers
from .pool import Lost, LostKind

__all__ = ["GRACE_S", "MAX_WORKERS", "BadItem", "grade_batch", "grade_item", "grading_loop",
           "item_key", "lost_result", "max_workers", "read_items", "resume_output", "resumed_rows",
           "skip_done"]


@dataclass(frozen=True)
class BadItem:
    """An input line that could not be decoded: it still gets a result row in its place."""

    why: str
    id: Any = None


@dataclass(frozen=True)
class InputLine:
    """One item of a batch file, its line number and the SHA-256 of its line (stripped of
    surrounding white space), which its result row records as ``input_sha256``."""

    item: dict | BadItem
    number: int
    digest: str


def read_lines(path: str | Path) -> Iterator[InputLine]:
    """The items of a JSONL file (``-``: standard input), one per non-blank line, with their
    line numbers and digests.

    A line that is not a JSON object — invalid JSON, a list, nesting too deep for the JSON
    decoder, a number too long for Python's int — becomes a :class:`BadItem` naming its line
    number, so the batch goes on.  Lines end at LF, CRLF or a lone CR, and a UTF-8 byte order
    mark is ignored (:func:`~planetarium.jsonl.numbered_lines`).  A line over
    :data:`~planetarium.jsonl.MAX_LINE_BYTES` ends the reading with a
    :class:`~planetarium.jsonl.JsonLineError` (no end of line in sight).
    """
    name = "standard input" if str(path) == "-" else str(path)
    stream = sys.stdin.buffer if str(path) == "-" else open(path, "rb")
    with stream:
        for number, line in numbered_lines(stream, name):
            digest = hashlib.sha256(line.strip()).hexdigest()
            try:
                item = decode(line)
            except JsonLineError as err:
                yield InputLine(BadItem(f"line {number}: {err}"), number, digest)
                continue
            yield InputLine(item if isinstance(item, dict) else BadItem(
                f"line {number}: expected a JSON object, got {type(item).__name__}"), number, digest)


def read_items(path: str | Path) -> Iterator[dict | BadItem]:
    """The items of a JSONL file, as :func:`read_lines` reads them."""
    return (line.item for line in read_lines(path))


def recording_digests(lines: Iterable[InputLine], digests: deque[str]
                      ) -> Iterator[dict | BadItem]:
    """The items of ``lines``, each one's digest appended to ``digests`` as it is read: results
    come back in input order, so the k-th result takes the k-th digest."""
    for line in lines:
        digests.append(line.digest)
        yield line.item


class DoneRow(NamedTuple):
    """What resuming checks of a row already written: its item's id key (see
    :func:`item_key`) and ``input_sha256`` (``None`` in rows written before rows had one)."""

    key: str | None
    digest: str | None


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


def resume_output(path: str | Path) -> PartialOutput:
    """The rows already in a partial output, for :func:`skip_done`, and their :class:`Tally`.

    Rows are written in input order, so the k-th row answers the k-th item: resuming skips
    exactly as many items as there are rows, whatever their ids (missing, repeated, bad lines).
    A batch killed mid-write can leave a truncated last line; it is cut off (its item is graded
    again).  Lines that are not result rows are an error: that file is not this command's output.
    """
    path = Path(path)
    done = PartialOutput()
    if not path.exists():
        return done
    for number, line in _whole_lines(path):
        row = _result_row(line)
        if row is None:
            raise ValueError(f"{path}, line {number}: not a grading result row; cannot resume")
        done.rows.append(DoneRow(None if row["id"] is None else _id_key(row["id"]),
                                 row.get("input_sha256")))
        done.tally.add(row)
    return done


def resumed_rows(path: str | Path, keys: Sequence[Hashable], key_of: Callable[[dict], Hashable],
                 required: Sequence[str] = ()) -> list[dict]:
    """The rows a killed scoring command left in its output, for ``--resume`` to keep.

    Such commands write one whole row per line in the order of their items, so row k must be
    the result of the item whose key is ``keys[k]`` (``key_of(row)``); the torn last line a kill
    can leave is cut off (its item runs again).  A line that is not a JSON object with the
    ``required`` keys, more rows than items, or a row of another item is a ``ValueError`` naming
    the first such row: the file is another command's, input's or selection's output, and
    nothing is kept or appended.
    """
    path = Path(path)
    if not path.exists():
        return []
    rows: list[dict] = []
    for number, line in _whole_lines(path):
        try:
            row = decode(line)
        except JsonLineError:
            row = None
        if not isinstance(row, dict) or not all(key in row for key in required):
            raise ValueError(f"{path}, line {number}: not a result row; cannot resume")
        at = len(rows)
        if at == len(keys):
            raise ValueError(f"{path} has more rows than the {len(keys)} items selected; it is "
                             "not their output, cannot resume")
        if key_of(row) != keys[at]:
            raise ValueError(f"{path}, line {number} answers {key_of(row)!r}, not item {at + 1} "
                             f"({keys[at]!r}): cannot resume; run again without --resume")
        rows.append(row)
    return rows


def _whole_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """The complete lines of an output file, numbered; a torn last line (a kill mid-write: it
    runs to the end of the file without a line end) is cut off the file once all are read."""
    torn = None
    with open(path, "rb") as handle:  # line by line, each line capped (the shared reader)
        for number, line in numbered_lines(handle, str(path)):
            if not line.endswith((b"\n", b"\r")):
                torn = handle.seek(0, os.SEEK_END) - len(line)
                break
            yield number, line
    if torn is not None:
        with open(path, "r+b") as handle:
            handle.truncate(torn)


def _result_row(line: bytes) -> dict | None:
    """A line of a batch's output as its row, or ``None`` when it is not one."""
    try:
        row = decode(line)
    except JsonLineError:
        return None
    if not isinstance(row, dict) or "id" not in row or row.get("status") not in _STATUSES \
            or not isinstance(row.get("input_sha256", ""), str):
        return None
    return row


_STATUSES = frozenset(status.value for status in Status)


def skip_done(lines: Iterable[InputLine], done: list[DoneRow], out: str) -> Iterator[InputLine]:
    """The input lines after the first ``len(done)``, which must carry the ids of those rows and,
    where a row records one, the same ``input_sha256``.

    The check runs before the first remaining item is handed out, so an output that belongs to
    another input, or to lines edited since they were graded, is refused (``ValueError``, one
    line naming the first row that differs) before anything is graded or appended.
    """
    lines = iter(lines)
    for row_number, row in enumerate(done, 1):
        line = next(lines, None)
        if line is None:
            raise ValueError(f"{out} has {len(done)} rows but the input has only "
                             f"{row_number - 1} items; it is not this batch's output")
        key = item_key(line.item)
        if key != row.key:
            raise ValueError(f"{out}, row {row_number}: id {row.key} where the input's item "
                             f"{row_number} has id {key}; it is not this batch's output")
        if row.digest is not None and row.digest != line.digest:
            raise ValueError(f"{out}, row {row_number}: input line {line.number} changed since "
                             "it was graded (its input_sha256 differs); grade the batch again "
                             "without --resume")
    return lines


def _id_key(item_id: Any) -> str:
    """Ids compare by their JSON text, so ``1`` and ``"1"`` stay different items."""
    return json.dumps(item_id, sort_keys=True)


def item_key(item: dict | BadItem) -> str | None:
    """What :func:`resume_output` matches against; ``None`` for items without an id."""
    item_id = item.id if isinstance(item, BadItem) else item.get("id")
    return None if item_id is None else _id_key(item_id)


def grade_item(item: dict | BadItem, options: GradeOptions,
               deadline: Deadline | None = None, *, headline_only: bool = False) -> GradeResult:
    """Grade one ``{"id", "gt", "pred", "is_placeholder", "anchored_objects"}`` item.

    ``options`` are the batch's defaults: an item's ``is_placeholder`` replaces the default, its
    ``anchored_objects`` add to the default anchors.  ``deadline``: the item's (default:
    ``options.timeout_s`` from now, or the deadline in force if it ends first); it covers
    reading the ground truth, which comes from the process's memo (read once per process).
    ``headline_only``: only ``correct`` is read, so grade with :func:`grade_correct`.
    """
    if isinstance(item, BadItem):
        return _bad(item.id, item.why)
    item_id = item.get("id")
    for key in ("gt", "pred"):
        if not isinstance(item.get(key), str):
            return _bad(item_id, f"'{key}' must be a string of PDDL")
    placeholder = item.get("is_placeholder", options.is_placeholder)
    if not isinstance(placeholder, bool):
        return _bad(item_id, "'is_placeholder' must be true or false")
    anchors = item.get("anchored_objects", [])
    if not isinstance(anchors, list) or not all(isinstance(a, str) for a in anchors):
        return _bad(item_id, "'anchored_objects' must be a list of object names")
    options = replace(options, is_placeholder=placeholder,
                      anchored_objects=(*options.anchored_objects, *anchors))
    deadline = deadline_for(options.timeout_s) if deadline is None else deadline
    with deadline.applied(), collector_paused():
        truth = prepared_truth(item["gt"], options.relax_typing)
        grader = grade_correct if headline_only else grade
        return replace(grader(truth, item["pred"], options=options, deadline=deadline),
                       id=item_id)


def _bad(item_id: Any, why: str) -> GradeResult:
    return GradeResult.failed(Stage.INPUT, Status.INVALID_INPUT, f"bad input item: {why}",
                              id=item_id)


def grade_batch(items: Iterable[dict | BadItem], *, options: GradeOptions | None = None,
                workers: int | None = None, progress: bool = True, total: int | None = None,
                grace_s: float = GRACE_S, desc: str | None = None) -> Iterator[GradeResult]:
    """Grade every item; yields one :class:`GradeResult` (with the item's ``id``) per item, in
    input order.

    ``options`` are the defaults for every item (see :func:`grade_item`); each item gets one
    deadline of ``options.timeout_s`` wall seconds, and a worker silent for ``grace_s`` more is
    killed and its item reported as ``timeout``.  ``progress`` shows a tqdm bar on standard
    error, labelled ``desc``.
    """
    with grading_loop(options or GradeOptions(), workers=workers, grace_s=grace_s) as loop:
        yield from loop.run(items, total=total, progress=progress, label=desc, unit="pair")


def grading_loop(options: GradeOptions, *, workers: int | None = None,
                 grace_s: float = GRACE_S) -> ItemLoop[dict | BadItem, GradeResult]:
    """The item loop :func:`grade_batch` grades on, for callers that keep it open across many
    runs (Ray Data's grader actors: a persistent pool, each worker's ground truths kept)."""

    def lost(item: dict | BadItem, why: Lost) -> GradeResult:
        return lost_result(why, options.timeout_s,
                           item.id if isinstance(item, BadItem) else item.get("id"))

    return ItemLoop(partial(_graded, options=options), timeout_s=options.timeout_s, lost=lost,
                    workers=workers, grace_s=grace_s)


def _graded(item: dict | BadItem, deadline: Deadline, options: GradeOptions) -> GradeResult:
    """The loop's task: one batch item under the deadline the loop made for it."""
    return grade_item(item, options, deadline)


def lost_result(lost: Lost, timeout_s: float, item_id: Any = None) -> GradeResult:
    """The result of an item whose worker hung (``timeout``) or died or failed (an internal
    error): every user of the worker pool (batches, the reward) reports it the same way."""
    if lost.kind is LostKind.TIMEOUT:
        return GradeResult.failed(Stage.GRADER, Status.TIMEOUT,
                                  f"no verdict within {timeout_s:g} s (worker killed)",
                                  id=item_id)
    why = "the grading worker died" if lost.kind is LostKind.DIED else f"internal error: {lost.why}"
    return GradeResult.failed(Stage.GRADER, Status.INTERNAL_ERROR, why, id=item_id)
