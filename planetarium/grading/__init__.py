"""Grade a generated problem against its ground truth: parseable, solvable, equivalent.

Results are data: a frozen :class:`GradeResult` with a verdict per stage — an answer (``True``,
``False`` or ``None``), a :class:`Status` kind and a reason that names the offending atom or
line.  Grading never raises on bad model output; options are one frozen :class:`GradeOptions`.

The rule for unsolvable predictions follows the paper's protocol: equivalence is decided for
solvable predictions; a prediction proven unsolvable is reported ``equivalent=False`` with that
reason (its ground truth is solvable, so it cannot be the same problem).  Pass
``equivalence_for_unsolvable=True`` to decide equivalence anyway — under Definition 2 two
unsolvable problems with isomorphic initial states are equivalent, which matters only when the
ground truth itself is unsolvable.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..domains import get_domain
from ..domains.base import Domain
from ..equivalence import Limits, compare
from ..errors import (
    PDDLSyntaxError,
    PDDLValidationError,
    PlanetariumError,
    ResourceLimitError,
    UnsupportedFeatureError,
)
from ..limits import collector_paused, time_limit
from ..pddl.problem import Problem, read_problem
from ..planning import SolveStatus, check_solvable
from .options import GradeOptions, GradeOptionsError
from .result import SKIPPED, GradeResult, Stage, StageVerdict, Status, decided, undecided

__all__ = ["GradeOptions", "GradeOptionsError", "GradeResult", "Stage", "StageVerdict", "Status",
           "grade", "grade_strict", "load_ground_truth"]

#: Model output longer than this is refused before parsing (a runaway generation, not PDDL).
MAX_INPUT_CHARS = 2_000_000


def load_ground_truth(gt: str, *, relax_typing: bool = False) -> tuple[Domain, Problem]:
    """Parse a ground-truth problem, taking its domain from its ``(:domain ...)``."""
    found: list[Domain] = []

    def lookup(name: str):
        found.append(get_domain(name))
        return found[0].definition

    problem = read_problem(gt, lookup, relax_typing=relax_typing)
    return found[0], problem


def grade(gt: str, pred: str, *, options: GradeOptions | None = None,
          **overrides: Any) -> GradeResult:
    """Grade ``pred`` (raw model output) against ``gt`` (ground-truth PDDL); never raises on
    bad input.

    ``options`` (default :class:`GradeOptions()`) with keyword ``overrides`` of its fields, e.g.
    ``grade(gt, pred, is_placeholder=True, timeout_s=5)``.  An unknown or ill-typed option is the
    caller's bug and raises (``TypeError`` / :class:`GradeOptionsError`); an unexpected failure
    inside grading is reported as status ``internal-error`` instead of crashing a batch.
    """
    options = replace(options or GradeOptions(), **overrides)
    try:
        with time_limit(options.timeout_s), collector_paused():
            return grade_strict(gt, pred, options)
    except Exception as err:  # noqa: BLE001 - last line of defence for batch grading
        return GradeResult.failed(Stage.GRADER, Status.INTERNAL_ERROR,
                                  f"internal error: {type(err).__name__}: {err}")


def grade_strict(gt: str, pred: str, options: GradeOptions) -> GradeResult:
    """Grade ``pred`` against ``gt`` like :func:`grade`, but let internal bugs raise (tests)."""
    deadline = time.monotonic() + options.timeout_s
    try:
        domain, truth = load_ground_truth(gt, relax_typing=options.relax_typing)
    except ResourceLimitError as err:  # a deadline hit while reading is a timeout, not bad input
        return GradeResult.failed(Stage.GROUND_TRUTH, Status.TIMEOUT, f"ground truth: {err}")
    except (PlanetariumError, RecursionError) as err:
        return GradeResult.failed(Stage.GROUND_TRUTH, Status.INVALID_INPUT,
                                  f"ground truth: {err}")
    name = domain.name
    if len(pred) > MAX_INPUT_CHARS:
        return GradeResult(decided(False, f"output has {len(pred)} characters, over the "
                                          f"{MAX_INPUT_CHARS} limit"), domain=name)
    try:
        problem = read_problem(pred, domain.definition, relax_typing=options.relax_typing)
    except ResourceLimitError as err:
        return GradeResult(undecided(Status.TIMEOUT, f"parsing undecided: {err}"), domain=name)
    except UnsupportedFeatureError as err:
        unsupported = undecided(Status.UNSUPPORTED, str(err))
        return GradeResult(decided(True), unsupported, unsupported, domain=name)
    except (PDDLSyntaxError, PDDLValidationError, RecursionError) as err:
        return GradeResult(decided(False, str(err)), domain=name)
    parse = decided(True)

    solve = _solve(domain, problem, deadline) if options.check_solvable else SKIPPED
    if solve.value is False and not options.equivalence_for_unsolvable:
        return GradeResult(parse, solve, decided(False, f"prediction is unsolvable: {solve.reason}"),
                           domain=name)
    anchors = set(options.anchored_objects) | (set(truth.objects) if options.anchor_all else set())
    try:
        verdict = compare(truth, problem, domain, is_placeholder=options.is_placeholder,
                          limits=Limits(timeout_s=max(0.0, deadline - time.monotonic())),
                          anchored_objects=anchors,
                          placeholder_semantics=options.placeholder_semantics)
    except ResourceLimitError as err:
        equivalence = undecided(Status.TIMEOUT, f"equivalence undecided: {err}")
    except UnsupportedFeatureError as err:
        equivalence = undecided(Status.UNSUPPORTED, f"equivalence undecided: {err}")
    except PlanetariumError as err:
        equivalence = undecided(Status.INTERNAL_ERROR, f"equivalence failed: {err}")
    else:
        equivalence = decided(verdict.equivalent, verdict.reason)
    return GradeResult(parse, solve, equivalence, domain=name)


_SOLVE_STATUS = {SolveStatus.TIMEOUT: Status.TIMEOUT, SolveStatus.ERROR: Status.INTERNAL_ERROR}


def _solve(domain: Domain, problem: Problem, deadline: float) -> StageVerdict:
    result = check_solvable(domain, problem, timeout_s=max(0.0, deadline - time.monotonic()))
    if result.status is SolveStatus.SOLVABLE:
        return decided(True, result.reason)
    if result.status is SolveStatus.UNSOLVABLE:
        return decided(False, result.reason)
    return undecided(_SOLVE_STATUS[result.status], f"solvability undecided: {result.reason}")
