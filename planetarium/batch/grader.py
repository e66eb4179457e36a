"""The item grader of ``grade --batch``: one ``{"id", "gt", "pred", ...}`` item under its
deadline (:func:`grade_item`), and many on the one item loop (:func:`grade_batch`,
:func:`grading_loop`).

Each pair gets one deadline of ``timeout_s`` wall seconds, made where it runs; a worker silent
for longer than that (plus a grace period) is killed, its item reported as ``timeout``
(:func:`.lost.lost_result`) and the rest of its chunk handed out again.  Results come back in
input order.  Each worker reads a ground truth once (the process's memo,
:mod:`planetarium.grading.truths`), however many pairs share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

from ..grading import (
    GradeOptions,
    GradeResult,
    Stage,
    Status,
    grade,
    grade_correct,
    prepared_truth,
)
from ..limits import Deadline, collector_paused, deadline_for
from ..loop import GRACE_S, ItemLoop
from ..pool import Lost
from .items import BadItem
from .lost import lost_result


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
