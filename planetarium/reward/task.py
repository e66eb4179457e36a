"""Grading one rollout, where it runs (a pool worker or the caller's process).

A :class:`RewardTask` is the function the worker pool calls per item.  It keeps the ground truths
it has read in a :class:`TruthCache` (content-keyed, least recently used out first, bounded by
count and by characters), so the G completions GRPO samples per prompt read and fully specify
their ground truth once.  Each worker has its own cache; the caller hands a worker the items of
one ground truth together, so most repeats land where the truth already is.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, replace

from ..grading import (
    GradeOptions,
    GradeResult,
    PreparedTruth,
    grade,
    grade_correct,
    prepare_ground_truth,
)
from ..limits import time_limit
from .inputs import Rollout

#: Ground truths kept per process, and the characters they may hold together.
CACHE_ENTRIES = 1024
CACHE_CHARS = 32_000_000


class TruthCache:
    """Prepared ground truths by text, least recently used evicted first."""

    def __init__(self, entries: int = CACHE_ENTRIES, chars: int = CACHE_CHARS) -> None:
        self.entries, self.chars = entries, chars
        self._kept: OrderedDict[str, PreparedTruth] = OrderedDict()
        self._size = 0

    def get(self, gt: str, options: GradeOptions) -> tuple[PreparedTruth, bool]:
        """The prepared ``gt`` and whether it was already kept."""
        kept = self._kept.get(gt)
        if kept is not None:
            self._kept.move_to_end(gt)
            return kept, True
        prepared = prepare_ground_truth(gt, options)
        if len(gt) <= self.chars and not prepared.timed_out:
            self._kept[gt] = prepared
            self._size += len(gt)
            while len(self._kept) > self.entries or self._size > self.chars:
                evicted, _ = self._kept.popitem(last=False)
                self._size -= len(evicted)
        return prepared, False


@dataclass(frozen=True)
class Graded:
    """A rollout's verdict and whether its ground truth came from the cache."""

    result: GradeResult
    cache_hit: bool
    seconds: float = 0.0  # time spent grading it, where it ran


class RewardTask:
    """Grade :class:`~planetarium.reward.inputs.Rollout` s with fixed options; callable,
    picklable, one cache per copy."""

    def __init__(self, options: GradeOptions, headline_only: bool = False) -> None:
        self.options = options
        self.headline_only = headline_only  # only ``correct`` counts: grade_correct's order
        self.cache = TruthCache()

    def __getstate__(self) -> dict:  # a copy sent to a worker starts with an empty cache
        return {"options": self.options, "headline_only": self.headline_only}

    def __setstate__(self, state: dict) -> None:
        RewardTask.__init__(self, **state)

    def __call__(self, rollout: Rollout) -> Graded:
        start = time.perf_counter()
        graded = self._grade(rollout)
        return replace(graded, seconds=time.perf_counter() - start)

    def _grade(self, rollout: Rollout) -> Graded:
        options = self.options
        if rollout.is_placeholder is not None or rollout.anchors:
            placeholder = options.is_placeholder if rollout.is_placeholder is None \
                else rollout.is_placeholder
            options = replace(options, is_placeholder=placeholder,
                              anchored_objects=(*options.anchored_objects, *rollout.anchors))
        grader = grade_correct if self.headline_only else grade
        with time_limit(options.timeout_s):  # reading the ground truth counts, as in grade()
            truth, hit = self.cache.get(rollout.gt, self.options)
            return Graded(grader(truth, rollout.answer, options=options), hit)
