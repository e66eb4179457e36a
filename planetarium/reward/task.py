"""Grading one rollout, where it runs (a worker of the reward's item loop, or the caller's process).

A :class:`RewardTask` is the loop's task: the benchmark's own :meth:`Benchmark.grade
<planetarium.benchmarks.base.Benchmark.grade>` of one answer under the item's one deadline, so a
reward is exactly the score the benchmark's grading gives.  Ground truths a benchmark reads
through the process's memo (:data:`planetarium.grading.TRUTHS`, Planetarium's) are read once per
worker; the caller hands a worker the rollouts of one item together (GRPO samples G per prompt),
so most repeats land where the truth already is, and the task reports whether this one did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

from ..benchmarks import Benchmark, ConfigT, ItemResult, Row
from ..benchmarks.grader import Ungraded
from ..grading import TRUTHS, Status
from ..limits import Deadline, Stopwatch
from ..pool import Lost, LostKind


@dataclass(frozen=True)
class Rollout:
    """One answer ready for grading against its item row (plain data: it crosses a pipe);
    ``key`` names the item, so rollouts of one item travel together."""

    answer: str
    item: Row
    key: str


@dataclass(frozen=True)
class Graded:
    """A rollout's result; ``cache_hit``: whether its ground truth came from the memo (``None``:
    none was read there); ``seconds``: grading time where it ran (``None``: it got no verdict
    there); ``lost``: why it was not graded, if it was not."""

    result: ItemResult
    cache_hit: bool | None = None
    seconds: float | None = None
    lost: LostKind | None = None


class RewardTask(Generic[ConfigT]):
    """``task(rollout, deadline) -> Graded``: picklable (a benchmark, its config)."""

    def __init__(self, benchmark: Benchmark[ConfigT], config: ConfigT) -> None:
        self.benchmark, self.config = benchmark, config

    def __call__(self, rollout: Rollout, deadline: Deadline) -> Graded:
        watch = Stopwatch()
        hits, misses = TRUTHS.hits, TRUTHS.misses
        result = self.benchmark.grade(self.config, rollout.item, rollout.answer, deadline)
        read = (TRUTHS.hits - hits, TRUTHS.misses - misses)
        return Graded(result, None if read == (0, 0) else read[1] == 0, watch.seconds)


class RewardLost(Generic[ConfigT]):
    """The loop's converter of a rollout it could not grade: the benchmark's own result for a
    killed or dead worker, and a ``timeout`` naming the call budget for one the budget cut."""

    def __init__(self, benchmark: Benchmark[ConfigT], config: ConfigT, timeout_s: float,
                 budget_s: float | None) -> None:
        self.ungraded = Ungraded(benchmark, config, timeout_s)
        self.budget_s = budget_s

    def __call__(self, rollout: Rollout, lost: Lost) -> Graded:
        if lost.kind is LostKind.BUDGET:
            ungraded = self.ungraded
            result = ungraded.benchmark.ungraded(
                ungraded.config, rollout.item, Status.TIMEOUT,
                f"undecided: the call budget of {self.budget_s:g} s was spent first")
        else:
            result = self.ungraded((rollout.item, rollout.answer), lost)
        return Graded(result, lost=lost.kind)


def settled(item_id: Any, status: Status, reason: str, metrics: tuple[str, ...] = ()
            ) -> ItemResult:
    """The result of an item decided without grading: ``invalid-input``, or (``decided``) an
    answer that is not there, which passes none of the benchmark's ``metrics``."""
    decided = status is Status.DECIDED
    return ItemResult(str(item_id), status, False if decided else None, reason,
                      metrics=dict.fromkeys(metrics, False) if decided else {})
