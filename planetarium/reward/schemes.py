"""How a verdict becomes a number: the named reward schemes.

``correct`` pays 1 for the paper's headline metric (parseable, solvable and equivalent) and 0
otherwise.  ``staged`` gives partial credit along the grading pipeline — some for parseable output,
more for a solvable problem, the rest for the right problem — so early training gets a gradient
before any answer is right.  Credit is cumulative and only for stages a correct answer also
passes: ``solvable`` pays only when parseable, ``equivalent`` only when correct.

An *undecided* verdict (a time limit, PDDL outside the decided fragment, an unreadable ground
truth, an internal error) is never counted correct under any scheme: it gets ``undecided_reward``
(0 by default), so a policy cannot learn to farm timeouts for credit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import Enum

from ..errors import PlanetariumError
from ..grading import GradeResult, Status


class RewardConfigError(PlanetariumError, ValueError):
    """A reward option has a wrong value (the caller's bug, raised when the reward is built)."""


class RewardScheme(str, Enum):
    CORRECT = "correct"
    STAGED = "staged"

    def __str__(self) -> str:
        return self.value


#: ``staged`` credit per stage (they sum to 1: a correct answer earns the same as under ``correct``).
DEFAULT_WEIGHTS = {"parseable": 0.1, "solvable": 0.2, "equivalent": 0.7}
#: Statuses that leave a verdict undecided: never correct, paid ``undecided_reward``.
UNDECIDED = frozenset({Status.TIMEOUT, Status.UNSUPPORTED, Status.INTERNAL_ERROR,
                       Status.INVALID_INPUT})


def scheme_of(value: RewardScheme | str) -> RewardScheme:
    try:
        return RewardScheme(value)
    except ValueError:
        choices = ", ".join(s.value for s in RewardScheme)
        raise RewardConfigError(f"scheme must be one of {choices}, got {value!r}") from None


def check_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """``staged`` weights: the defaults with ``weights`` over them; finite and non-negative."""
    if weights is None:
        return dict(DEFAULT_WEIGHTS)
    if not isinstance(weights, Mapping):
        raise RewardConfigError(f"weights must map stage names to numbers, got {weights!r}")
    unknown = set(weights) - set(DEFAULT_WEIGHTS)
    if unknown:
        raise RewardConfigError(f"unknown stage(s) in weights: {', '.join(sorted(map(str, unknown)))}"
                                f"; stages are {', '.join(DEFAULT_WEIGHTS)}")
    merged = {**DEFAULT_WEIGHTS, **weights}
    for stage, weight in merged.items():
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) \
                or not math.isfinite(weight) or weight < 0:
            raise RewardConfigError(f"weights.{stage} must be a finite number >= 0, got {weight!r}")
    return {stage: float(weight) for stage, weight in merged.items()}


def check_reward(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RewardConfigError(f"{what} must be a finite number, got {value!r}")
    return float(value)


def is_undecided(result: GradeResult) -> bool:
    return result.status in UNDECIDED


def score(result: GradeResult, scheme: RewardScheme, weights: Mapping[str, float],
          undecided_reward: float) -> float:
    """The reward for one verdict (see the module docstring)."""
    if is_undecided(result):
        return undecided_reward
    if scheme is RewardScheme.CORRECT:
        return 1.0 if result.correct else 0.0
    parseable = bool(result.parseable)
    solvable = parseable and bool(result.solvable)
    return (weights["parseable"] * parseable + weights["solvable"] * solvable
            + weights["equivalent"] * result.correct)
