"""Many ARB labels on the one item loop: ``arb check-labels`` (``arb score`` grades through
the benchmark, :mod:`planetarium.benchmarks.arb`, on the same loop).

The command hands its records to :func:`planetarium.loop.run_items`, like every command that
grades many things: worker processes (started as the work needs them), one
:class:`~planetarium.limits.Deadline` per question on :data:`.score.CLOCK` made from the user's
``--timeout``, a worker silent past that deadline's wall-time limit plus a grace period killed
and replaced, rows in input order.  A killed question's row is ``timeout``; one whose worker
died or whose check raised is ``internal-error``: never a wrong answer.

The tasks carry the domain and instance folders rather than a :class:`~.catalog.Catalog` (whose
lookups are closures): a worker makes the catalog once (:func:`catalog_for`, cached), so a task
pickles where workers are spawned, and forked workers inherit the one the parent made.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..grading import Status
from ..limits import Deadline
from ..loop import run_items
from ..pool import Lost, LostKind
from .catalog import Catalog, make_catalog
from .records import ArbRecord
from .score import CLOCK, DEFAULT_TIMEOUT_S, label_row, unscored_row

Row = dict[str, Any]


@functools.lru_cache(maxsize=8)
def catalog_for(domains_dir: str | None, instances_dir: str | None) -> Catalog:
    """The catalog of these folders (built-ins alone for ``None``), made once per process."""
    return make_catalog(domains_dir, instances_dir)


class LabelTask:
    """The loop's task for ``arb check-labels``: the ``index``-th stored label recomputed
    under the question's deadline."""

    def __init__(self, records: Sequence[ArbRecord], domains_dir: str | None = None,
                 instances_dir: str | None = None) -> None:
        self.records, self.folders = records, (domains_dir, instances_dir)

    def __call__(self, index: int, deadline: Deadline) -> Row:
        return label_row(self.records[index], catalog_for(*self.folders), deadline)


class LostRow:
    """The row of the ``index``-th question when the loop got none: its worker was killed
    past the limit, died, or its task raised."""

    def __init__(self, records: Sequence[ArbRecord], timeout_s: float) -> None:
        self.records, self.timeout_s = records, timeout_s
        self.wall_limit_s = Deadline.start(timeout_s, CLOCK).wall_limit_s

    def __call__(self, index: int, lost: Lost) -> Row:
        record = self.records[index]
        if lost.kind is LostKind.TIMEOUT:
            row = unscored_row(record, Status.TIMEOUT,
                               f"no answer within {self.timeout_s:g} s of {CLOCK} time "
                               f"({self.wall_limit_s:g} s of wall time; worker killed)")
            row["seconds"] = self.wall_limit_s
        else:
            row = unscored_row(record, Status.INTERNAL_ERROR, f"internal error: {lost.why}")
            row["seconds"] = 0.0
        return row


def check_all(records: Iterable[ArbRecord], *, domains_dir: str | None = None,
              instances_dir: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
              workers: int | None = None, progress: bool = False) -> Iterator[Row]:
    """One :func:`.score.label_row` per record, in order, in ``workers`` processes."""
    records = list(records)
    return run_items(LabelTask(records, domains_dir, instances_dir), range(len(records)),
                     timeout_s=timeout_s, lost=LostRow(records, timeout_s), clock=CLOCK,
                     workers=workers, progress=progress, label="arb check-labels",
                     unit="question")
