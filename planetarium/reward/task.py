"""Grading one rollout, where it runs (a pool worker or the caller's process).

A :class:`RewardTask` is the function the worker pool calls per item.  It takes ground truths
from the process's memo (:data:`planetarium.grading.TRUTHS`: content-keyed, least recently used
out first, bounded by count and by characters), so the G completions GRPO samples per prompt
read and fully specify their ground truth once.  Each worker has its own memo (a forked worker
starts with it empty); the caller hands a worker the items of one ground truth together, so
most repeats land where the truth already is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..grading import TRUTHS, GradeOptions, GradeResult, grade, grade_correct
from ..limits import Deadline, Stopwatch
from .inputs import Rollout


@dataclass(frozen=True)
class Graded:
    """A rollout's verdict and whether its ground truth came from the cache."""

    result: GradeResult
    cache_hit: bool
    seconds: float = 0.0  # time spent grading it, where it ran


class RewardTask:
    """Grade :class:`~planetarium.reward.inputs.Rollout` s with fixed options; callable and
    picklable (ground truths are read through the process's one memo, ``grading.TRUTHS``)."""

    def __init__(self, options: GradeOptions, headline_only: bool = False) -> None:
        self.options = options
        self.headline_only = headline_only  # only ``correct`` counts: grade_correct's order

    def __call__(self, rollout: Rollout) -> Graded:
        watch = Stopwatch()
        graded = self._grade(rollout)
        return replace(graded, seconds=watch.seconds)

    def _grade(self, rollout: Rollout) -> Graded:
        options = self.options
        if rollout.is_placeholder is not None or rollout.anchors:
            placeholder = options.is_placeholder if rollout.is_placeholder is None \
                else rollout.is_placeholder
            options = replace(options, is_placeholder=placeholder,
                              anchored_objects=(*options.anchored_objects, *rollout.anchors))
        grader = grade_correct if self.headline_only else grade
        deadline = Deadline.start(options.timeout_s)
        with deadline.applied():  # reading the ground truth counts, as in grade()
            truth, hit = TRUTHS.get(rollout.gt, self.options.relax_typing)
            return Graded(grader(truth, rollout.answer, options=options, deadline=deadline), hit)
