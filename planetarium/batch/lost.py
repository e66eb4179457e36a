"""The result of a pair the loop got no verdict for: its worker hung, died or failed."""

from __future__ import annotations

from typing import Any

from ..grading import GradeResult, Stage, Status
from ..pool import Lost, LostKind


def lost_result(lost: Lost, timeout_s: float, item_id: Any = None) -> GradeResult:
    """The result of an item whose worker hung (``timeout``) or died or failed (an internal
    error): every user of the worker pool (batches, the reward) reports it the same way."""
    if lost.kind is LostKind.TIMEOUT:
        return GradeResult.failed(Stage.GRADER, Status.TIMEOUT,
                                  f"no verdict within {timeout_s:g} s (worker killed)",
                                  id=item_id)
    why = "the grading worker died" if lost.kind is LostKind.DIED else f"internal error: {lost.why}"
    return GradeResult.failed(Stage.GRADER, Status.INTERNAL_ERROR, why, id=item_id)
