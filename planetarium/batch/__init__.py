"""Grade many pairs in parallel without letting one bad item stop or stall the batch.

One module per job: :mod:`.items` reads a batch file (a line that is no item still gets a
row), :mod:`.grader` grades one item and many on the one item loop (:mod:`planetarium.loop`),
:mod:`.lost` is the result of an item whose worker hung or died, and :mod:`.output` what
``grade --batch`` keeps of its results file (the counts, the rows a killed batch left, checked
by :mod:`planetarium.resume`, the one resume module).

Workers die with the parent: on Linux the kernel kills them when it exits (``PR_SET_PDEATHSIG``),
and everywhere a worker waiting for work notices that its parent is gone within a second.  A
killed batch therefore leaves nothing behind, and :func:`resume_output` with :func:`skip_done`
lets a rerun skip exactly the items its partial output already holds (rows are in input order).
Workers start only as work needs them, at most :func:`max_workers`.

The names below are the documented ones (CONTRACTS.md: ``batch.grade_batch``, ...).
"""

from __future__ import annotations

from ..loop import GRACE_S, MAX_WORKERS, max_workers
from .grader import grade_batch, grade_item, grading_loop
from .items import BadItem, InputLine, item_key, read_items, read_lines, recording_digests
from .lost import lost_result
from .output import PartialOutput, Tally, is_result_row, resume_output, skip_done

__all__ = ["GRACE_S", "MAX_WORKERS", "BadItem", "InputLine", "PartialOutput", "Tally",
           "grade_batch", "grade_item", "grading_loop", "is_result_row", "item_key",
           "lost_result", "max_workers", "read_items", "read_lines", "recording_digests",
           "resume_output", "skip_done"]
