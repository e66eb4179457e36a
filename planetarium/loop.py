"""The one item loop: run a task over many items in worker processes, one deadline per item.

Every command that grades many things — ``grade --batch``, ``eval grade`` (any benchmark), the
harness adapters through :class:`~planetarium.benchmarks.grader.ItemGrader`, ACP scoring and the
training reward (:mod:`planetarium.reward`, one run per trainer call, under its call budget) —
hands its items to :class:`ItemLoop` (or :func:`run_items`) with a task that grades one of them.
The loop owns what they share, so no command has a pool of its own:

* **one deadline per item**: the worker makes the item's :class:`~planetarium.limits.Deadline`
  from ``timeout_s`` and the :class:`~planetarium.limits.Clock` the caller declares, just before
  the task starts, puts it in force (:meth:`~planetarium.limits.Deadline.applied`, for plug-in
  hooks without a deadline parameter) and passes it to the task: ``task(item, deadline)``;
* **a hard kill**: the items run on one :class:`~planetarium.pool.WorkerPool`, which kills a
  worker silent for longer than the deadline's wall-time limit plus a grace period and replaces
  it (as it replaces workers that die); such an item, and one whose task raised, gets the result
  the caller's ``lost(item, Lost)`` converter makes of it, so every item has a result;
* **input order**, a labelled progress bar, and **resume**: ``skip`` passes over the first items
  of a rerun whose results are already written (the caller checked they are the same items).

The task must be picklable where workers are spawned rather than forked (a module-level
function, a ``functools.partial`` of one, or an instance of a module-level class).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sized
from itertools import islice
from typing import Any, Generic, TypeVar

from .limits import Clock, Deadline, check_seconds
from .pool import Lost, WorkerPool, usable_cpus

#: Seconds a worker may overrun its item's wall-time limit before it is killed.  Grading honours
#: its limit in process (planetarium.limits), so this only catches a call stuck where no deadline
#: is looked at; one second keeps every item within its limit plus one second.
GRACE_S = 1.0
#: The most worker processes, whatever ``workers`` asks for (see :func:`max_workers`).
MAX_WORKERS = 64

Item = TypeVar("Item")
Result = TypeVar("Result")


def max_workers() -> int:
    """The most worker processes a loop starts: 4 per CPU, at most :data:`MAX_WORKERS`.

    Grading is CPU-bound, so more processes than that only cost memory (each one is a copy of
    the parent: 1,000 of them took 3.4 GB).
    """
    return max(1, min(MAX_WORKERS, 4 * usable_cpus()))


def worker_count(workers: int | None) -> int:
    """The processes a loop asked for ``workers`` (``None``: usable CPUs) starts at most."""
    return min(max(1, workers or usable_cpus()), max_workers())


class Timed:
    """What a worker runs for one item: the item's deadline, made where and when the item runs
    (a deadline made in the parent would count the time the item waits in a chunk).  A caller
    that runs an item in its own process (the reward's ``workers=0``) calls it the same way."""

    def __init__(self, task: Callable[[Any, Deadline], Any], timeout_s: float,
                 clock: Clock) -> None:
        self.task, self.timeout_s, self.clock = task, timeout_s, clock

    def __call__(self, item: Any) -> Any:
        deadline = Deadline.start(self.timeout_s, self.clock)
        with deadline.applied():
            return self.task(item, deadline)


class ItemLoop(Generic[Item, Result]):
    """A pool of workers that run ``task(item, deadline)``; reusable across :meth:`run` calls.

    ``timeout_s`` and ``clock``: every item's deadline (``Clock.CPU`` where verdicts must not
    depend on how busy the machine is); ``lost(item, lost)``: the result of an item whose worker
    was killed past the deadline's wall-time limit plus ``grace_s``, died, or whose task raised;
    ``workers``: processes (default: usable CPUs, at most :func:`max_workers`), started as the
    work needs them.  Close it (or use it as a context
    manager) to stop the workers.  Thread-safe: runs from several threads share the workers
    (the pool hands out their chunks in turn), each in its own input order and budget.
    """

    def __init__(self, task: Callable[[Item, Deadline], Result], *, timeout_s: float,
                 lost: Callable[[Item, Lost], Result], clock: Clock = Clock.WALL,
                 workers: int | None = None, grace_s: float = GRACE_S,
                 start_method: str | None = None) -> None:
        self.timeout_s = check_seconds(timeout_s)
        self.clock = clock
        self.lost = lost
        #: Silence after which a worker is killed: the most wall time an item may take, + grace.
        self.kill_after_s = Deadline.start(self.timeout_s, clock).wall_limit_s + grace_s
        self.pool = WorkerPool(worker_count(workers), Timed(task, self.timeout_s, clock),
                               start_method=start_method)

    def run(self, items: Iterable[Item], *, skip: int = 0, total: int | None = None,
            progress: bool = False, label: str | None = None, unit: str = "item",
            budget_s: float | None = None) -> Iterator[Result]:
        """One result per item of ``items`` after the first ``skip``, in input order.

        ``items`` is read lazily, a chunk at a time.  ``skip``: items whose results a resumed
        run already holds; they are not run again and count as done on the bar.  ``progress``:
        a tqdm bar on standard error, labelled ``label``, of ``total`` items (default: their
        number, when ``items`` is sized).  ``budget_s``: the whole run's seconds, counted from
        this call (a trainer's reward call); items unfinished when it is spent get
        ``lost(item, Lost(LostKind.BUDGET, ...))`` and their workers are replaced.
        """
        from tqdm import tqdm

        if total is None and isinstance(items, Sized):
            total = len(items)
        todo = islice(items, skip, None) if skip else items
        done: dict[int, Result] = {}
        next_out = 0
        bar = tqdm(total=total, initial=skip, desc=label, unit=unit, disable=not progress,
                   smoothing=0.05)
        try:
            for index, item, outcome in self.pool.run(todo, deadline_s=self.kill_after_s,
                                                     budget_s=budget_s):
                done[index] = self.lost(item, outcome) if isinstance(outcome, Lost) else outcome
                while next_out in done:
                    bar.update(1)
                    yield done.pop(next_out)
                    next_out += 1
        finally:
            bar.close()

    @property
    def replaced(self) -> int:
        """Workers killed (past their item's limit) or found dead, over the loop's life."""
        return self.pool.replaced

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> ItemLoop[Item, Result]:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def run_items(task: Callable[[Item, Deadline], Result], items: Iterable[Item], *,
              timeout_s: float, lost: Callable[[Item, Lost], Result],
              clock: Clock = Clock.WALL, workers: int | None = None, skip: int = 0,
              total: int | None = None, progress: bool = False, label: str | None = None,
              unit: str = "item", grace_s: float = GRACE_S,
              start_method: str | None = None) -> Iterator[Result]:
    """:meth:`ItemLoop.run` on a loop of its own, closed when the results end (or are
    abandoned): one call for a command that grades one list of items."""
    loop = ItemLoop(task, timeout_s=timeout_s, lost=lost, clock=clock, workers=workers,
                    grace_s=grace_s, start_method=start_method)
    try:
        yield from loop.run(items, skip=skip, total=total, progress=progress, label=label,
                            unit=unit)
    finally:
        loop.close()
