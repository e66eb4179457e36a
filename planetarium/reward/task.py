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
from typing import Any

from ..grading import TRUTHS, GradeOptions, GradeResult, Stage, Status, grade, grade_correct
from ..grading.result import decided
from ..limits import Deadline, Stopwatch
from .answer import answer_of, completion_text


@dataclass(frozen=True)
class Rollout:
    """What one reward item carries to its grader (plain data: it crosses a pipe)."""

    completion: Any
    gt: Any
    is_placeholder: Any = None  # None: the options' default
    anchors: Any = ()


@dataclass(frozen=True)
class Graded:
    """A rollout's verdict and whether its ground truth came from the cache."""

    result: GradeResult
    cache_hit: bool | None  # None: no ground truth was read (bad item, no answer)
    seconds: float = 0.0    # time spent grading it, where it ran


class RewardTask:
    """Grade :class:`Rollout` s with fixed options; callable and picklable."""

    def __init__(self, options: GradeOptions, think_marker: str | None,
                 headline_only: bool = False) -> None:
        self.options = options
        self.think_marker = think_marker
        self.headline_only = headline_only  # only ``correct`` counts: grade_correct's order

    def __call__(self, rollout: Rollout) -> Graded:
        watch = Stopwatch()
        graded = self._grade(rollout)
        return replace(graded, seconds=watch.seconds)

    def _grade(self, rollout: Rollout) -> Graded:
        bad = _bad_item(rollout)
        if bad:
            return Graded(GradeResult.failed(Stage.INPUT, Status.INVALID_INPUT, bad), None)
        text = completion_text(rollout.completion)
        if text is None:
            return Graded(GradeResult(decided(False, "no answer: the completion holds no text")),
                          None)
        answer, why = answer_of(text, self.think_marker)
        if answer is None:
            return Graded(GradeResult(decided(False, why)), None)
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
            return Graded(grader(truth, answer, options=options, deadline=deadline), hit)


def _bad_item(rollout: Rollout) -> str | None:
    """Why a rollout's dataset columns are unusable (the data's fault, not the model's)."""
    if not isinstance(rollout.gt, str):
        return f"the ground truth must be a string of PDDL, got {type(rollout.gt).__name__}"
    if rollout.is_placeholder is not None and not isinstance(rollout.is_placeholder, bool):
        return f"is_placeholder must be true or false, got {rollout.is_placeholder!r}"
    anchors = rollout.anchors
    if not isinstance(anchors, (list, tuple)) or not all(isinstance(a, str) for a in anchors):
        return f"anchored objects must be a list of object names, got {anchors!r}"
    return None
