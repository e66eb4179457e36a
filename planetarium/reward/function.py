"""``PlanetariumReward``: grading as a reward function that never hangs its caller.

A trainer calls the reward once per step with every rollout of the step; one pathological
completion must cost at most its deadline, never the step.  So grading runs in a persistent
:class:`~planetarium.pool.WorkerPool` that kills a worker silent past the per-item deadline and
starts another; an optional per-call budget bounds the whole call, and anything that still goes
wrong inside becomes the undecided reward for its items and is counted — it is never raised.

Rollouts of one ground truth travel together to one worker (GRPO samples G per prompt), where
the process's memo (:data:`planetarium.grading.TRUTHS`) reads and fully specifies the truth once.

``workers=0`` grades in the calling process: no processes, but only the grader's own cooperative
time limit, which a pathological input may overrun.  ``workers=None`` (the default) starts a pool of
``min(4, CPUs available)`` processes, even on one CPU, because the hard deadline is the point.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..batch import lost_result
from ..grading import GradeOptions, GradeResult, Stage, Status
from ..limits import LimitValueError, check_seconds, wall_now
from ..pool import Lost, LostKind, WorkerPool, renew_after_fork, usable_cpus, why
from . import inputs
from .inputs import Rollout
from .schemes import (
    RewardConfigError,
    RewardScheme,
    check_reward,
    check_weights,
    is_undecided,
    scheme_of,
    score,
)
from .task import Graded, RewardTask

log = logging.getLogger("planetarium")

#: The grader's own (cooperative) limit, as a share of the hard per-item deadline: most slow
#: items then report ``timeout`` themselves and their worker survives.
SOFT_LIMIT_SHARE = 0.8
#: Most worker processes ``workers=None`` starts.
DEFAULT_MAX_WORKERS = 4


def default_workers() -> int:
    return max(1, min(DEFAULT_MAX_WORKERS, usable_cpus()))


class PlanetariumReward:
    """A reward function in the form TRL's ``GRPOTrainer(reward_funcs=[...])`` calls it.

    ``reward(prompts=..., completions=..., **dataset_columns) -> list[float]``: completions are
    strings or chat-message lists; the ground truth, placeholder flag and anchored objects come
    from the dataset columns named ``gt_column``, ``placeholder_column`` (without it,
    ``options.is_placeholder``) and ``anchors_column`` (``None``: no anchors).  ``scheme``: ``correct``
    or ``staged`` (``weights`` for the latter); ``timeout_s`` is the hard per-item deadline,
    ``call_budget_s`` bounds a whole call; ``undecided_reward`` is paid for a verdict that is not
    decided (timeout, unsupported, internal error).  See the module docstring for ``workers``.
    ``options``: grading options for every item (e.g. ``relax_typing``); the placeholder flag and
    anchors of an item come from its columns, the time limit from ``timeout_s``.  ``name``: the
    ``__name__`` trainers log (default ``planetarium_<scheme>``).  ``start_method``: how worker
    processes start (default ``fork`` where it exists; ``forkserver`` inside a process that holds
    CUDA state).  After a call, ``last_details`` holds per item its reward, grading seconds,
    status, stage, reason and stage answers; ``metrics()`` counts over the reward's life.
    """

    def __init__(self, scheme: RewardScheme | str = "correct", timeout_s: float = 5.0,
                 workers: int | None = None, *, gt_column: str = "problem_pddl",
                 placeholder_column: str | None = "is_placeholder",
                 anchors_column: str | None = None, think_marker: str | None = "</think>",
                 undecided_reward: float = 0.0, weights: Mapping[str, float] | None = None,
                 call_budget_s: float | None = None, name: str | None = None,
                 options: GradeOptions | None = None, start_method: str | None = None) -> None:
        self.scheme = scheme_of(scheme)
        self.weights = check_weights(weights)
        self.undecided_reward = check_reward(undecided_reward, "undecided_reward")
        try:
            self.timeout_s = check_seconds(timeout_s)
            self.call_budget_s = None if call_budget_s is None else check_seconds(
                call_budget_s, "call_budget_s")
        except LimitValueError as err:
            raise RewardConfigError(str(err)) from None
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or workers < 0):
            raise RewardConfigError(f"workers must be a whole number >= 0 or None, got {workers!r}")
        if not isinstance(gt_column, str):
            raise RewardConfigError(f"gt_column must be a column name, got {gt_column!r}")
        self.gt_column, self.placeholder_column = gt_column, placeholder_column
        self.anchors_column = anchors_column
        self.__name__ = name or f"planetarium_{self.scheme.name}"
        options = replace(options or GradeOptions(), timeout_s=self.timeout_s * SOFT_LIMIT_SHARE)
        self.think_marker = think_marker
        self._task = RewardTask(options, headline_only=self.scheme.headline_only)
        self.workers = default_workers() if workers is None else workers
        self._pool = WorkerPool(self.workers, self._task, start_method=start_method) \
            if self.workers else None
        self._finalizer = weakref.finalize(self, self._pool.close) if self._pool else None
        self._fresh_locks()
        renew_after_fork(self, PlanetariumReward._fresh_locks)  # a forked child's own locks
        self._counts: Counter[str] = Counter(dict.fromkeys(COUNTS, 0))
        self._seconds = 0.0
        self.last_details: list[dict[str, Any]] = []

    def _fresh_locks(self) -> None:
        """New locks: when the reward is made, and in a child forked while a call held one."""
        self._stats_lock = threading.Lock()  # counts, seconds, last_details
        self._in_process_lock = threading.Lock()  # workers=0: the one task and its cache

    # --- the call --------------------------------------------------------------------------

    def __call__(self, prompts: Sequence[Any] | None = None,
                 completions: Sequence[Any] | None = None, **columns: Any) -> list[float]:
        """One reward per completion, in order; never raises on what the model wrote or on a
        failure inside grading.  A missing ground-truth column, a column whose length is not
        the number of completions, or a placeholder flag or anchor list of the wrong kind is a
        configuration error (:class:`RewardConfigError`).  Calls from several threads run at
        the same time on the shared workers, each within its own budget."""
        start = wall_now()
        items = self._items(completions, columns)
        results, seconds, counts = self._grade(items, start)
        rewards = [score(r, self.scheme, self.weights, self.undecided_reward) for r in results]
        details = [_details(*entry) for entry in zip(results, rewards, seconds, strict=True)]
        with self._stats_lock:
            self._counts.update(counts)
            self._seconds += wall_now() - start
            self.last_details = details
        self._report_to_trainer(columns, details, counts)
        return rewards

    def _report_to_trainer(self, columns: dict, details: list[dict[str, Any]],
                           call: Counter[str]) -> None:
        """Hand this call's verdicts to TRL's ``log_extra`` (completions table: status and
        reason per completion) and ``log_metric`` (shares of undecided kinds, cache hit rate),
        when the trainer passes them (TRL >= 0.2x); a failing logger is logged, never raised."""
        log_extra, log_metric = columns.get("log_extra"), columns.get("log_metric")
        try:
            if callable(log_extra):
                for key in ("status", "reason"):
                    log_extra(f"{self.__name__}_{key}", [d[key] for d in details])
            if callable(log_metric) and details:
                for key in ("timeouts", "unsupported", "internal_errors", "invalid_inputs"):
                    log_metric(f"{self.__name__}/{key}", call[key] / call["items"])
                looked_up = call["cache_hits"] + call["cache_misses"]
                if looked_up:
                    log_metric(f"{self.__name__}/cache_hit_rate", call["cache_hits"] / looked_up)
        except Exception:  # noqa: BLE001 - logging must not cost the trainer its step
            log.exception("planetarium reward: the trainer's logging callback failed")

    def _items(self, completions: Sequence[Any] | None, columns: dict
               ) -> list[Rollout | GradeResult]:
        """The call's items from TRL's arguments as plain data (see :mod:`.inputs`): a rollout
        to grade, or the verdict an unusable item gets without grading.  A missing or misshapen
        column, or a configuring column of the wrong kind, raises :class:`RewardConfigError`
        before anything is graded."""
        if completions is None:
            raise RewardConfigError("the reward needs completions=[...]")
        completions = inputs.values_of(completions, "completions")
        n = len(completions)
        truths = inputs.required_column(columns, self.gt_column, n)
        flags = inputs.column(columns, self.placeholder_column, n)
        anchors = inputs.column(columns, self.anchors_column, n)
        flags = [None] * n if flags is None else inputs.placeholder_flags(
            flags, f"column {self.placeholder_column!r}")
        anchors = [()] * n if anchors is None else inputs.anchor_lists(
            anchors, f"column {self.anchors_column!r}")
        return [inputs.settled_or_rollout(c, gt, flag, names, self.think_marker)
                for c, gt, flag, names in zip(completions, truths, flags, anchors, strict=True)]

    def _grade(self, items: list[Rollout | GradeResult], start: float
               ) -> tuple[list[GradeResult], list[float | None], Counter[str]]:
        """Verdicts in input order, the seconds each took to grade where it ran (``None`` when
        it got no verdict there), and the call's counts; an internal failure becomes an
        internal-error verdict."""
        results = [item if isinstance(item, GradeResult) else None for item in items]
        seconds: list[float | None] = [None] * len(items)
        counts: Counter[str] = Counter()
        order = _grouped(items)
        rollouts = [item for i in order if isinstance(item := items[i], Rollout)]  # all of order
        budget = None if self.call_budget_s is None else \
            max(0.0, self.call_budget_s - (wall_now() - start))  # counted from the call's start
        try:
            if self._pool is None:
                outcomes = self._in_process(rollouts, budget)
            else:
                outcomes = self._pool.run(rollouts, deadline_s=self.timeout_s, budget_s=budget)
            for position, _, outcome in outcomes if rollouts else ():
                results[order[position]] = self._verdict(outcome, counts)
                if isinstance(outcome, Graded):
                    seconds[order[position]] = outcome.seconds
        except Exception as err:  # noqa: BLE001 - the trainer must never see our failure
            log.exception("planetarium reward: internal failure; items left are undecided")
            lost = GradeResult.failed(Stage.GRADER, Status.INTERNAL_ERROR,
                                      f"internal error: {why(err)}")
            results = [lost if r is None else r for r in results]
        done = [r for r in results if r is not None]
        assert len(done) == len(results)  # every item has one now
        _count(done, counts)
        return done, seconds, counts

    def _in_process(self, rollouts: list[Rollout], budget_s: float | None
                    ) -> Iterator[tuple[int, Rollout, Graded | Lost]]:
        """Grade here, one call at a time (the task's cache is not thread-safe); waiting for
        another call counts against this call's budget."""
        end = None if budget_s is None else wall_now() + budget_s
        got = self._in_process_lock.acquire(timeout=-1 if budget_s is None else budget_s)
        try:
            for index, rollout in enumerate(rollouts):
                if not got or (end is not None and wall_now() >= end):
                    yield index, rollout, Lost(LostKind.BUDGET, "the call's budget was spent first")
                    continue
                try:
                    yield index, rollout, self._task(rollout)
                except Exception as err:  # noqa: BLE001 - as a worker would report it
                    yield index, rollout, Lost(LostKind.ERROR, why(err))
        finally:
            if got:
                self._in_process_lock.release()

    def _verdict(self, outcome: Graded | Lost, counts: Counter[str]) -> GradeResult:
        if isinstance(outcome, Graded):
            counts["cache_hits" if outcome.cache_hit else "cache_misses"] += 1
            return outcome.result
        if outcome.kind is LostKind.BUDGET:
            counts["budget_exhausted"] += 1
            return GradeResult.failed(Stage.GRADER, Status.TIMEOUT,
                                      f"undecided: the call budget of {self.call_budget_s:g} s "
                                      "was spent first")
        return lost_result(outcome, self.timeout_s)

    # --- reporting and life cycle ------------------------------------------------------------

    def metrics(self) -> dict[str, Any]:
        """Counts over the reward's life: calls, items, undecided kinds, cache hits and rate."""
        with self._stats_lock:
            counts: dict[str, Any] = dict(self._counts)
            counts["seconds"] = self._seconds
        looked_up = counts["cache_hits"] + counts["cache_misses"]
        counts["cache_hit_rate"] = counts["cache_hits"] / looked_up if looked_up else 0.0
        counts["workers_replaced"] = self._pool.replaced if self._pool else 0
        counts["rewards_per_s"] = counts["items"] / self._seconds if self._seconds else 0.0
        return counts

    def close(self) -> None:
        """Stop the worker processes (a later call starts them again)."""
        if self._pool is not None:
            self._pool.close()

    def __enter__(self) -> PlanetariumReward:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"PlanetariumReward(scheme={self.scheme.name!r}, timeout_s={self.timeout_s:g}, "
                f"workers={self.workers})")


def _grouped(items: list[Rollout | GradeResult]) -> list[int]:
    """The positions of the rollouts among ``items``, ordered so rollouts of one ground truth are
    adjacent (first seen first): they then travel to one worker, where its truth is cached."""
    first: dict[str, int] = {}
    keys = {i: first.setdefault(item.gt, i) for i, item in enumerate(items)
            if isinstance(item, Rollout)}
    return sorted(keys, key=lambda i: (keys[i], i))


def _count(results: list[GradeResult], counts: Counter[str]) -> None:
    counts["calls"] += 1
    counts["items"] += len(results)
    for result in results:
        counts["correct"] += result.correct
        if is_undecided(result):
            key = {Status.TIMEOUT: "timeouts", Status.UNSUPPORTED: "unsupported",
                   Status.INVALID_INPUT: "invalid_inputs"}.get(result.status, "internal_errors")
            counts[key] += 1


#: What ``metrics()`` counts over the reward's life.
COUNTS = ("calls", "items", "correct", "timeouts", "unsupported", "internal_errors",
          "invalid_inputs", "budget_exhausted", "cache_hits", "cache_misses")


def _details(result: GradeResult, reward: float, seconds: float | None) -> dict[str, Any]:
    stage = result.stage
    return {"reward": reward, "seconds": seconds, "status": result.status.value,
            "stage": None if stage is None else stage.value, "reason": result.reason,
            "parseable": result.parseable, "solvable": result.solvable,
            "equivalent": result.equivalent, "correct": result.correct}
