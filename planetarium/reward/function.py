"""``PlanetariumReward``: a benchmark's grading as a reward function that never hangs its caller.

A trainer calls the reward once per step with every rollout of the step; one pathological
completion must cost at most its deadline, never the step.  So each rollout is graded by its
benchmark's own :meth:`Benchmark.grade <planetarium.benchmarks.base.Benchmark.grade>` on the one
item loop (:class:`planetarium.loop.ItemLoop`): one deadline per item (``timeout_s``, on the
benchmark's clock), a worker silent past it (plus the loop's grace) killed and replaced, and an
optional per-call budget (``call_budget_s``) on the loop's run; anything that still goes wrong
inside becomes the undecided reward for its items and is counted — it is never raised.  The
reward of an answer is therefore the score the benchmark's grading gives it (``eval grade``,
``acp score``, ``arb score``).

Rollouts of one item travel together to one worker (GRPO samples G per prompt), where the
process's memo (:data:`planetarium.grading.TRUTHS`) reads and fully specifies a Planetarium
ground truth once.

``workers=0`` grades in the calling process: no processes, but only the grader's own cooperative
time limit, which a pathological input may overrun.  ``workers=None`` (the default) starts a loop of
``min(4, CPUs available)`` processes, even on one CPU, because the hard deadline is the point.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import weakref
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..benchmarks import Benchmark, ItemResult, Row, get_benchmark
from ..grading import GradeOptions, Status
from ..limits import LimitValueError, check_seconds, wall_now
from ..loop import ItemLoop, Timed
from ..plugins import PluginNotFoundError
from ..pool import Lost, LostKind, renew_after_fork, usable_cpus, why
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
from .task import Graded, RewardLost, RewardTask, settled

log = logging.getLogger("planetarium")

#: Most worker processes ``workers=None`` starts.
DEFAULT_MAX_WORKERS = 4
#: The benchmark whose rows may also come as separate columns (ground truth, placeholder flag,
#: anchored objects), as before rewards served every benchmark.
COLUMNS_BENCHMARK = "planetarium"


def default_workers() -> int:
    return max(1, min(DEFAULT_MAX_WORKERS, usable_cpus()))


class PlanetariumReward:
    """A reward function in the form TRL's ``GRPOTrainer(reward_funcs=[...])`` calls it.

    ``reward(prompts=..., completions=..., **dataset_columns) -> list[float]``: completions are
    strings or chat-message lists, graded by the registered benchmark ``benchmark``
    (``planetarium``, ``acpbench``, ``arb``, or a plug-in).  Each row's item is the benchmark's
    published record in the column ``item_column`` (JSON text or a mapping: a dataset row of
    Planetarium, one question of ACPBench's files, one record of ARB's questions files).  For
    Planetarium, without that column, the ground truth, placeholder flag and anchored objects
    come from the columns named ``gt_column``, ``placeholder_column`` (without it, the options'
    ``is_placeholder``) and ``anchors_column`` (``None``: no anchors).  ``scheme``: a registered
    scheme (``correct``, ``staged`` with ``weights``); ``timeout_s`` is each answer's deadline
    (on the benchmark's clock: CPU seconds for ACPBench and ARB), ``call_budget_s`` bounds a
    whole call; ``undecided_reward`` is paid for a result that is not decided (timeout,
    unsupported, internal error, invalid input).  See the module docstring for ``workers``.
    ``options``: Planetarium's grading options for every item (e.g. ``relax_typing``); the
    placeholder flag and anchors of an item come from its row, the time limit from
    ``timeout_s``.  ``name``: the ``__name__`` trainers log (default ``<benchmark>_<scheme>``, e.g.
    ``planetarium_correct``).  ``start_method``: how worker processes
    start (default ``fork`` where it exists; ``forkserver`` inside a process that holds CUDA
    state).  After a call, ``last_details`` holds per item its reward, grading seconds, status,
    reason, correct and the benchmark's metrics; ``metrics()`` counts over the reward's life.
    """

    def __init__(self, scheme: RewardScheme | str = "correct", timeout_s: float = 5.0,
                 workers: int | None = None, *, benchmark: str = "planetarium",
                 item_column: str = "item", gt_column: str = "problem_pddl",
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
        for what, value in (("gt_column", gt_column), ("item_column", item_column)):
            if not isinstance(value, str):
                raise RewardConfigError(f"{what} must be a column name, got {value!r}")
        self.benchmark = _benchmark(benchmark)
        self.item_column, self.gt_column = item_column, gt_column
        self.placeholder_column, self.anchors_column = placeholder_column, anchors_column
        self.__name__ = name or f"{self.benchmark.name}_{self.scheme.name}"
        self.think_marker = think_marker
        self.config = _config(self.benchmark, self.timeout_s, self.scheme, options)
        self._task = RewardTask(self.benchmark, self.config)
        self._lost = RewardLost(self.benchmark, self.config, self.timeout_s, self.call_budget_s)
        self.workers = default_workers() if workers is None else workers
        self._loop: ItemLoop[Rollout, Graded] | None = ItemLoop(
            self._task, timeout_s=self.timeout_s, lost=self._lost, clock=self.benchmark.clock,
            workers=self.workers, start_method=start_method) if self.workers else None
        self._finalizer = weakref.finalize(self, self._loop.close) if self._loop else None
        self._fresh_locks()
        renew_after_fork(self, PlanetariumReward._fresh_locks)  # a forked child's own locks
        self._counts: Counter[str] = Counter(dict.fromkeys(COUNTS, 0))
        self._seconds = 0.0
        self.last_details: list[dict[str, Any]] = []

    def _fresh_locks(self) -> None:
        """New locks: when the reward is made, and in a child forked while a call held one."""
        self._stats_lock = threading.Lock()  # counts, seconds, last_details
        self._in_process_lock = threading.Lock()  # workers=0: one grading at a time here

    # --- the call --------------------------------------------------------------------------

    def __call__(self, prompts: Sequence[Any] | None = None,
                 completions: Sequence[Any] | None = None, **columns: Any) -> list[float]:
        """One reward per completion, in order; never raises on what the model wrote or on a
        failure inside grading.  A missing item column, a column whose length is not the
        number of completions, or a placeholder flag or anchor list of the wrong kind is a
        configuration error (:class:`RewardConfigError`).  Calls from several threads run at
        the same time on the shared workers, each within its own budget."""
        start = wall_now()
        items = self._items(completions, columns)
        graded, counts = self._grade(items, start)
        results = [g.result for g in graded]
        rewards = [score(r, self.scheme, self.weights, self.undecided_reward) for r in results]
        details = [_details(g.result, reward, g.seconds)
                   for g, reward in zip(graded, rewards, strict=True)]
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
               ) -> list[Rollout | ItemResult]:
        """The call's items from TRL's arguments as plain data (see :mod:`.inputs`): a rollout
        to grade, or the result an unusable item gets without grading.  A missing or misshapen
        column, or a configuring column of the wrong kind, raises :class:`RewardConfigError`
        before anything is graded."""
        if completions is None:
            raise RewardConfigError("the reward needs completions=[...]")
        completions = inputs.values_of(completions, "completions")
        n = len(completions)
        rows = self._rows(columns, n)
        return [inputs.settled_or_rollout(c, row, number, self.think_marker,
                                          self.benchmark.metrics)
                for number, (c, row) in enumerate(zip(completions, rows, strict=True))]

    def _rows(self, columns: dict, n: int) -> list[Row | str]:
        """Each completion's item row (or why it has none): from the item column, or for
        Planetarium from its separate columns."""
        records = inputs.column(columns, self.item_column, n)
        if records is not None:
            return [inputs.record_row(self.benchmark, record) for record in records]
        if self.benchmark.name != COLUMNS_BENCHMARK:
            raise RewardConfigError(
                f"no dataset column {self.item_column!r} reached the reward (columns: "
                f"{', '.join(sorted(columns)) or 'none'}); it holds each row's "
                f"{self.benchmark.name} record (set item_column= to its name)")
        truths = inputs.required_column(columns, self.gt_column, n)
        flags = inputs.column(columns, self.placeholder_column, n)
        anchors = inputs.column(columns, self.anchors_column, n)
        flags = [None] * n if flags is None else inputs.placeholder_flags(
            flags, f"column {self.placeholder_column!r}")
        anchors = [()] * n if anchors is None else inputs.anchor_lists(
            anchors, f"column {self.anchors_column!r}")
        return [inputs.planetarium_row(gt, flag, names)
                for gt, flag, names in zip(truths, flags, anchors, strict=True)]

    def _grade(self, items: list[Rollout | ItemResult], start: float
               ) -> tuple[list[Graded], Counter[str]]:
        """Results in input order (with the seconds each took where it ran) and the call's
        counts; an internal failure becomes an internal-error result."""
        done: list[Graded | None] = [Graded(item) if isinstance(item, ItemResult) else None
                                     for item in items]
        order = _grouped(items)
        rollouts = [item for i in order if isinstance(item := items[i], Rollout)]  # all of order
        budget = None if self.call_budget_s is None else \
            max(0.0, self.call_budget_s - (wall_now() - start))  # counted from the call's start
        try:
            if rollouts:
                outcomes = self._in_process(rollouts, budget) if self._loop is None else \
                    self._loop.run(rollouts, budget_s=budget)
                for position, outcome in zip(order, outcomes, strict=True):
                    done[position] = outcome
        except Exception as err:  # noqa: BLE001 - the trainer must never see our failure
            log.exception("planetarium reward: internal failure; items left are undecided")
            done = [Graded(settled(i, Status.INTERNAL_ERROR, f"internal error: {why(err)}"))
                    if g is None else g for i, g in enumerate(done)]
        graded = [g for g in done if g is not None]
        assert len(graded) == len(items)  # every item has one now
        return graded, _count(graded)

    def _in_process(self, rollouts: list[Rollout], budget_s: float | None) -> Iterator[Graded]:
        """Grade here, one call at a time (a benchmark's memo is not thread-safe), under the
        item's deadline as a worker would; waiting for another call counts against this
        call's budget."""
        end = None if budget_s is None else wall_now() + budget_s
        timed = Timed(self._task, self.timeout_s, self.benchmark.clock)
        got = self._in_process_lock.acquire(timeout=-1 if budget_s is None else budget_s)
        try:
            for rollout in rollouts:
                if not got or (end is not None and wall_now() >= end):
                    yield self._lost(rollout, Lost(LostKind.BUDGET, "the budget was spent"))
                    continue
                try:
                    yield timed(rollout)
                except Exception as err:  # noqa: BLE001 - as a worker would report it
                    yield self._lost(rollout, Lost(LostKind.ERROR, why(err)))
        finally:
            if got:
                self._in_process_lock.release()

    # --- reporting and life cycle ------------------------------------------------------------

    def metrics(self) -> dict[str, Any]:
        """Counts over the reward's life: calls, items, undecided kinds, cache hits and rate."""
        with self._stats_lock:
            counts: dict[str, Any] = dict(self._counts)
            counts["seconds"] = self._seconds
        looked_up = counts["cache_hits"] + counts["cache_misses"]
        counts["cache_hit_rate"] = counts["cache_hits"] / looked_up if looked_up else 0.0
        counts["workers_replaced"] = self._loop.replaced if self._loop else 0
        counts["rewards_per_s"] = counts["items"] / self._seconds if self._seconds else 0.0
        return counts

    def close(self) -> None:
        """Stop the worker processes (a later call starts them again)."""
        if self._loop is not None:
            self._loop.close()

    def __enter__(self) -> PlanetariumReward:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"PlanetariumReward(scheme={self.scheme.name!r}, "
                f"benchmark={self.benchmark.name!r}, timeout_s={self.timeout_s:g}, "
                f"workers={self.workers})")


def _benchmark(name: str) -> Benchmark:
    try:
        return get_benchmark(name)
    except PluginNotFoundError as err:
        raise RewardConfigError(f"benchmark: {err}") from None


def _config(benchmark: Benchmark, timeout_s: float, scheme: RewardScheme,
            options: GradeOptions | None) -> Any:
    """The benchmark's settings for the reward, with Planetarium's grading ``options``."""
    config = benchmark.reward_config(timeout_s, headline_only=scheme.headline_only)
    if options is None:
        return config
    if "options" not in {f.name for f in dataclasses.fields(config)}:
        raise RewardConfigError(f"options= are grading options of Planetarium's PDDL; the "
                                f"{benchmark.name} benchmark takes none")
    if not isinstance(options, GradeOptions):
        raise RewardConfigError(f"options must be GradeOptions, got {inputs.shown(options)}")
    return dataclasses.replace(config, options=options)


def _grouped(items: list[Rollout | ItemResult]) -> list[int]:
    """The positions of the rollouts among ``items``, ordered so rollouts of one item are
    adjacent (first seen first): they then travel to one worker, where its truth is cached."""
    first: dict[str, int] = {}
    keys = {i: first.setdefault(item.key, i) for i, item in enumerate(items)
            if isinstance(item, Rollout)}
    return sorted(keys, key=lambda i: (keys[i], i))


def _count(graded: list[Graded]) -> Counter[str]:
    """One call's counts (see :data:`COUNTS`)."""
    counts: Counter[str] = Counter(calls=1, items=len(graded))
    for entry in graded:
        result = entry.result
        counts["correct"] += bool(result.correct)
        if entry.cache_hit is not None:
            counts["cache_hits" if entry.cache_hit else "cache_misses"] += 1
        if entry.lost is LostKind.BUDGET:
            counts["budget_exhausted"] += 1
        if is_undecided(result):
            key = {Status.TIMEOUT: "timeouts", Status.UNSUPPORTED: "unsupported",
                   Status.INVALID_INPUT: "invalid_inputs"}.get(result.status, "internal_errors")
            counts[key] += 1
    return counts


#: What ``metrics()`` counts over the reward's life.
COUNTS = ("calls", "items", "correct", "timeouts", "unsupported", "internal_errors",
          "invalid_inputs", "budget_exhausted", "cache_hits", "cache_misses")


def _details(result: ItemResult, reward: float, seconds: float | None) -> dict[str, Any]:
    """One item's line of ``last_details``: its reward and how it was reached; Planetarium's
    strict verdict adds its settling stage and stage answers."""
    verdict = result.details.get("strict") or {}
    stages = {key: verdict[key] for key in ("parseable", "solvable", "equivalent") if key in verdict}
    return {"reward": reward, "seconds": seconds, "status": result.status.value,
            "stage": verdict.get("stage"), "reason": result.reason, **result.metrics, **stages,
            "correct": result.correct}
