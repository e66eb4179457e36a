"""How a verdict becomes a number: the reward schemes, registered plug-ins like domains.

A scheme is a :class:`RewardScheme` object with a name; the built-ins are ``correct`` and
``staged``, and others come from the ``planetarium.reward_schemes`` entry-point group or
:func:`register_scheme` (:class:`planetarium.plugins.Registry`).

A scheme reads a benchmark's :class:`~planetarium.benchmarks.ItemResult` (``correct`` and its
``metrics``), so every scheme serves every benchmark.  ``correct`` pays 1 for a correct answer
and 0 otherwise: the score ``eval grade``, ``acp score`` and ``arb score`` give it.  ``staged``
gives partial credit along the grading pipeline — some for parseable output, more for a
solvable problem, the rest for the right one — so early training gets a gradient before any
answer is right.  Credit is cumulative and only for stages a correct answer also passes:
``solvable`` pays only when parseable, ``equivalent`` only when correct.  A stage a benchmark
does not grade is credited like the stage before it (ACPBench and ARB grade ``parseable`` and
``correct``: a parseable answer earns the ``solvable`` weight too).

An *undecided* result (a time limit, PDDL outside the decided fragment, an unreadable ground
truth, an internal error) is never counted correct under any scheme: it gets ``undecided_reward``
(0 by default), so a policy cannot learn to farm timeouts for credit.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping

from ..benchmarks import ItemResult
from ..errors import PlanetariumError
from ..grading import Status
from ..plugins import PluginNotFoundError, Registry


class RewardConfigError(PlanetariumError, ValueError):
    """A reward option has a wrong value (the caller's bug, raised when the reward is built)."""


class RewardScheme(ABC):
    """One way to turn a *decided* verdict into a reward (undecided ones never reach it: they
    are paid ``undecided_reward``, see :func:`score`).

    ``headline_only``: the scheme reads nothing but ``result.correct``, so a benchmark may skip
    work that only fills other metrics (:meth:`Benchmark.reward_config
    <planetarium.benchmarks.base.Benchmark.reward_config>`; Planetarium grades equivalence
    first, solvability only when it can matter, which gives the same ``correct``).
    """

    name: str = ""
    headline_only: bool = False

    @abstractmethod
    def reward(self, result: ItemResult, weights: Mapping[str, float]) -> float:
        """The reward of one decided result (``weights``: the checked stage weights)."""

    def __str__(self) -> str:
        return self.name


class Correct(RewardScheme):
    """1 for a correct answer (parseable, solvable and equivalent), else 0."""

    name = "correct"
    headline_only = True

    def reward(self, result: ItemResult, weights: Mapping[str, float]) -> float:
        return 1.0 if result.correct else 0.0


class Staged(RewardScheme):
    """Partial credit along the pipeline, cumulative (see the module docstring)."""

    name = "staged"

    def reward(self, result: ItemResult, weights: Mapping[str, float]) -> float:
        correct = bool(result.correct)
        parseable = bool(result.metrics.get("parseable", correct))
        solvable = parseable and bool(result.metrics.get("solvable", parseable))
        return (weights["parseable"] * parseable + weights["solvable"] * solvable
                + weights["equivalent"] * correct)


CORRECT, STAGED = Correct(), Staged()
ENTRY_POINT_GROUP = "planetarium.reward_schemes"
#: name -> "module:attribute", exactly as pyproject's entry points declare them.
BUILTINS = {"correct": "planetarium.reward.schemes:CORRECT",
            "staged": "planetarium.reward.schemes:STAGED"}
REGISTRY: Registry[RewardScheme] = Registry("reward scheme", ENTRY_POINT_GROUP, RewardScheme,
                                            BUILTINS, lambda scheme: scheme.name)


def register_scheme(scheme: RewardScheme, *, replace: bool = False) -> RewardScheme:
    return REGISTRY.register(scheme, replace=replace)


def available_schemes() -> dict[str, RewardScheme]:
    return REGISTRY.available()


#: ``staged`` credit per stage (they sum to 1: a correct answer earns the same as under ``correct``).
DEFAULT_WEIGHTS = {"parseable": 0.1, "solvable": 0.2, "equivalent": 0.7}


def scheme_of(value: RewardScheme | str) -> RewardScheme:
    """The scheme ``value`` names (a registered name, or a scheme object itself)."""
    if isinstance(value, RewardScheme):
        return value
    if isinstance(value, str):
        try:
            return REGISTRY.get(value)
        except PluginNotFoundError:
            pass
    choices = ", ".join(available_schemes())
    raise RewardConfigError(f"scheme must be one of {choices}, got {value!r}")


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


def is_undecided(result: ItemResult) -> bool:
    """Every status but ``decided`` (a result then has no ``correct``)."""
    return result.status is not Status.DECIDED


def score(result: ItemResult, scheme: RewardScheme, weights: Mapping[str, float],
          undecided_reward: float) -> float:
    """The reward for one verdict (see the module docstring)."""
    if is_undecided(result):
        return undecided_reward
    return scheme.reward(result, weights)
