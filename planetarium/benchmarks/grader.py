"""Grading a benchmark's answers on the one item loop: many at once, or one at a time.

:func:`grade_items` is what ``eval grade`` runs: every (item, answer) pair through
:meth:`Benchmark.grade <planetarium.benchmarks.base.Benchmark.grade>` in worker processes, one
deadline per item made from ``timeout_s`` and the benchmark's clock, results in input order.
:class:`ItemGrader` keeps one loop open for callers that grade one answer at a time (the
lm-eval and Inspect adapters, integrations): the workers start once and keep what they have read
(each ground truth is read once per worker, :mod:`planetarium.grading.truths`), and a grader
that hangs is killed and replaced like in a batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic

from ..grading import Status
from ..limits import Deadline
from ..loop import ItemLoop
from ..pool import Lost, LostKind
from .base import Benchmark, ConfigT, ItemResult, Row

Job = tuple[Row, str]


class BenchmarkTask(Generic[ConfigT]):
    """The loop's task: one (item, answer) pair graded by the benchmark under its deadline."""

    def __init__(self, benchmark: Benchmark[ConfigT], config: ConfigT, explain: bool) -> None:
        self.benchmark, self.config, self.explain = benchmark, config, explain

    def __call__(self, job: Job, deadline: Deadline) -> ItemResult:
        item, answer = job
        return self.benchmark.grade(self.config, item, answer, deadline, explain=self.explain)


class Ungraded(Generic[ConfigT]):
    """The loop's converter of a lost item into the benchmark's result for it."""

    def __init__(self, benchmark: Benchmark[ConfigT], config: ConfigT, timeout_s: float) -> None:
        self.benchmark, self.config, self.timeout_s = benchmark, config, timeout_s

    def __call__(self, job: Job, lost: Lost) -> ItemResult:
        if lost.kind is LostKind.TIMEOUT:
            status = Status.TIMEOUT
            reason = (f"no verdict within {self.timeout_s:g} s of {self.benchmark.clock} time "
                      "(worker killed)")
        else:
            status = Status.INTERNAL_ERROR
            reason = ("the grading worker died" if lost.kind is LostKind.DIED
                      else f"internal error: {lost.why}")
        return self.benchmark.ungraded(self.config, job[0], status, reason)


class ItemGrader(Generic[ConfigT]):
    """A benchmark's grader with its worker processes kept open: :meth:`grade` one answer at a
    time (or :meth:`grade_many`).  ``timeout_s``: per answer (default: ``config.timeout_s``);
    ``workers``: processes (one suits a caller that asks for one answer at a time; ``None``:
    usable CPUs).  Close it,
    or use it as a context manager."""

    def __init__(self, benchmark: Benchmark[ConfigT], config: ConfigT, *, workers: int | None = 1,
                 timeout_s: float | None = None, explain: bool = False) -> None:
        timeout_s = config.timeout_s if timeout_s is None else timeout_s
        self.benchmark, self.config = benchmark, config
        self.loop: ItemLoop[Job, ItemResult] = ItemLoop(
            BenchmarkTask(benchmark, config, explain), timeout_s=timeout_s,
            lost=Ungraded(benchmark, config, timeout_s), clock=benchmark.clock, workers=workers)

    def grade(self, item: Row, answer: str) -> ItemResult:
        """The result of one answer (never raises on what the answer holds)."""
        [result] = self.loop.run([(item, answer)])
        return result

    def grade_many(self, items: Iterable[Row], answers: Iterable[str], *, skip: int = 0,
                   total: int | None = None, progress: bool = False, label: str | None = None,
                   unit: str = "answer") -> Iterator[ItemResult]:
        """One result per (item, answer), in order; ``skip``: pairs a resumed run already
        graded (not graded again); ``progress``: a bar labelled ``label`` (default: with the
        benchmark's name), counting ``unit``."""
        jobs = zip(items, answers, strict=True)
        return self.loop.run(jobs, skip=skip, total=total, progress=progress,
                             label=label or f"grading {self.benchmark.name}", unit=unit)

    def close(self) -> None:
        self.loop.close()

    def __enter__(self) -> ItemGrader[ConfigT]:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def grade_items(benchmark: Benchmark[ConfigT], config: ConfigT, items: Iterable[Row],
                answers: Iterable[str], *, timeout_s: float | None = None,
                workers: int | None = None, progress: bool = False, explain: bool = False,
                skip: int = 0, total: int | None = None) -> Iterator[ItemResult]:
    """Every answer graded by ``benchmark``, one result per pair in input order, on a loop of
    its own (closed when the results end or are abandoned).  ``workers``: processes (default:
    usable CPUs); ``skip``: pairs a resumed run already graded; ``total``: for the bar."""
    grader = ItemGrader(benchmark, config, workers=workers, timeout_s=timeout_s,
                        explain=explain)
    try:
        yield from grader.grade_many(items, answers, skip=skip, total=total, progress=progress)
    finally:
        grader.close()
