"""Self-check of generated ground truths: each must grade parseable, solvable and equivalent to
itself in its row's mode.

Generation never parses or grades (it must be fast); this is the separate step that proves the
templates wrote valid, solvable PDDL.  Rows sharing one PDDL text and one mode are graded once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..grading import GradeResult


def check_rows(rows: Iterable[dict], *, workers: int | None = None, timeout_s: float = 60.0,
               progress: bool = False, desc: str = "self-check"
               ) -> list[tuple[dict, GradeResult]]:
    """(row, grade result) for every row that is not parseable + solvable + equivalent."""
    from ..batch import grade_batch
    from ..grading import GradeOptions

    rows = list(rows)
    first: dict[tuple[str, bool], int] = {}
    for index, row in enumerate(rows):
        first.setdefault((row["problem_pddl"], row["is_placeholder"]), index)
    items = [{"id": index, "gt": pddl, "pred": pddl, "is_placeholder": placeholder}
             for (pddl, placeholder), index in first.items()]
    verdicts = {}
    for result in grade_batch(items, options=GradeOptions(timeout_s=timeout_s), workers=workers,
                              progress=progress, total=len(items), desc=desc):
        verdicts[result.id] = result
    failures = []
    for row in rows:
        result = verdicts[first[(row["problem_pddl"], row["is_placeholder"])]]
        if not result.correct:
            failures.append((row, result))
    return failures
