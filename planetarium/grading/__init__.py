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
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..domains import get_domain
from ..domains.base import Domain
from ..equivalence import REACHABLE_GOAL_STATES, Limits, compare
from ..errors import (
    PDDLSyntaxError,
    PDDLValidationError,
    PlanetariumError,
    ResourceLimitError,
    UnsupportedFeatureError,
)
from ..limits import collector_paused, deadline_within, time_limit
from ..pddl.problem import Problem, read_problem
from ..planning import SolveStatus, check_solvable
from .options import GradeOptions, GradeOptionsError, check_option_names
from .result import SKIPPED, GradeResult, Stage, StageVerdict, Status, decided, undecided

if TYPE_CHECKING:  # explanations are imported when asked for: start-up of `planetarium grade`
    from ..equivalence.explanation import Explanation

__all__ = ["GradeOptions", "GradeOptionsError", "GradeResult", "PreparedTruth", "Stage",
           "StageVerdict", "Status", "grade", "grade_correct", "grade_strict",
           "load_ground_truth", "prepare_ground_truth"]

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


@dataclass(frozen=True, eq=False)
class PreparedTruth:
    """A ground truth read once, to grade many predictions against it.

    A training reward grades every ground truth against a group of completions (GRPO's G); this
    keeps the parsed problem, and ``memo`` keeps what grading derives from it alone (its fully
    specified goal, its solvability), so none of it is computed again.  ``error`` says why the
    ground truth could not be read (then ``domain`` and ``problem`` are ``None``); ``timed_out``:
    because the time limit ran out, which says nothing about the text (do not keep it).
    """

    text: str
    relax_typing: bool
    domain: Domain | None = None
    problem: Problem | None = None
    error: str | None = None
    timed_out: bool = False
    memo: dict = field(default_factory=dict, repr=False)


def prepare_ground_truth(gt: str, options: GradeOptions | None = None) -> PreparedTruth:
    """Read ``gt`` for :func:`grade`; an unreadable ground truth is recorded, never raised."""
    relax = (options or GradeOptions()).relax_typing
    try:
        domain, problem = load_ground_truth(gt, relax_typing=relax)
    except ResourceLimitError as err:
        return PreparedTruth(gt, relax, error=f"ground truth: {err}", timed_out=True)
    except (PlanetariumError, RecursionError) as err:
        return PreparedTruth(gt, relax, error=f"ground truth: {err}")
    return PreparedTruth(gt, relax, domain, problem)


def grade(gt: str | PreparedTruth, pred: str, *, options: GradeOptions | None = None,
          **overrides: Any) -> GradeResult:
    """Grade ``pred`` (raw model output) against ``gt`` (ground-truth PDDL, or a
    :class:`PreparedTruth` of it); never raises on bad input.

    ``options`` (default :class:`GradeOptions()`) with keyword ``overrides`` of its fields, e.g.
    ``grade(gt, pred, is_placeholder=True, timeout_s=5)``.  An unknown or ill-typed option is the
    caller's bug and raises (``TypeError`` / :class:`GradeOptionsError`); an unexpected failure
    inside grading is reported as status ``internal-error`` instead of crashing a batch.
    """
    check_option_names(overrides)
    return _guarded(gt, pred, replace(options or GradeOptions(), **overrides), False)


def grade_correct(gt: str | PreparedTruth, pred: str, *, options: GradeOptions | None = None,
                  **overrides: Any) -> GradeResult:
    """Like :func:`grade`, at the least cost for the headline metric (training rewards).

    ``correct`` is parseable, solvable and equivalent.  An answer equivalent to the ground truth
    (Definition 2: the same reachable goal states up to renaming) is solvable exactly when the
    ground truth is, so equivalence is decided first and the planner runs on the ground truth only
    — once per :class:`PreparedTruth`; an answer that is not equivalent is wrong whatever its
    solvability, so that stage is skipped (``solvable`` is ``None``).  ``correct`` equals
    :func:`grade`'s whenever both decide.
    """
    check_option_names(overrides)
    return _guarded(gt, pred, replace(options or GradeOptions(), **overrides), True)


def _guarded(gt: str | PreparedTruth, pred: str, options: GradeOptions,
             equivalence_first: bool) -> GradeResult:
    try:
        with time_limit(options.timeout_s), collector_paused():
            return grade_strict(gt, pred, options, equivalence_first=equivalence_first)
    except Exception as err:  # noqa: BLE001 - last line of defence for batch grading
        return GradeResult.failed(Stage.GRADER, Status.INTERNAL_ERROR,
                                  f"internal error: {type(err).__name__}: {err}")


def grade_strict(gt: str | PreparedTruth, pred: str, options: GradeOptions, *,
                 equivalence_first: bool = False) -> GradeResult:
    """Grade ``pred`` against ``gt`` like :func:`grade` (``equivalence_first``: like
    :func:`grade_correct`), but let internal bugs raise (tests)."""
    deadline = deadline_within(options.timeout_s)
    prepared = gt if isinstance(gt, PreparedTruth) else prepare_ground_truth(gt, options)
    if prepared.relax_typing != options.relax_typing:  # read for other options: read it again
        prepared = prepare_ground_truth(prepared.text, options)
    if prepared.error is not None:
        status = Status.TIMEOUT if prepared.timed_out else Status.INVALID_INPUT
        return GradeResult.failed(Stage.GROUND_TRUTH, status, prepared.error)
    domain, truth = prepared.domain, prepared.problem
    name = domain.name
    if len(pred) > MAX_INPUT_CHARS:  # not read at all: undecided, never "not parseable"
        return GradeResult(undecided(Status.UNSUPPORTED, f"answer is {len(pred):,} characters, "
                                     f"over the {MAX_INPUT_CHARS:,}-character cap; not graded"),
                           domain=name)
    try:
        problem = read_problem(pred, domain.definition, relax_typing=options.relax_typing)
    except ResourceLimitError as err:
        return GradeResult(undecided(Status.TIMEOUT, f"parsing undecided: {err}"), domain=name)
    except UnsupportedFeatureError as err:
        unsupported = undecided(Status.UNSUPPORTED, str(err))
        return GradeResult(decided(True), unsupported, unsupported, domain=name)
    except (PDDLSyntaxError, PDDLValidationError, RecursionError) as err:
        return _unparseable(str(err), name, options)
    parse = decided(True)

    solve = SKIPPED if equivalence_first or not options.check_solvable else \
        _solve(domain, problem, deadline)
    anchors = set(options.anchored_objects) | (set(truth.objects) if options.anchor_all else set())
    if solve.value is False and not options.equivalence_for_unsolvable:
        return GradeResult(parse, solve, decided(False, f"prediction is unsolvable: {solve.reason}"),
                           domain=name, explanation=_explanation(
                               truth, problem, domain, options, anchors, deadline, None,
                               solve.reason))
    try:
        verdict = compare(truth, problem, domain, is_placeholder=options.is_placeholder,
                          limits=Limits(timeout_s=max(0.0, deadline - time.monotonic())),
                          anchored_objects=anchors,
                          placeholder_semantics=options.placeholder_semantics,
                          truth_memo=prepared.memo)
    except ResourceLimitError as err:
        equivalence = undecided(Status.TIMEOUT, f"equivalence undecided: {err}")
    except UnsupportedFeatureError as err:
        equivalence = undecided(Status.UNSUPPORTED, f"equivalence undecided: {err}")
    except PlanetariumError as err:
        equivalence = undecided(Status.INTERNAL_ERROR, f"equivalence failed: {err}")
    else:
        equivalence = decided(verdict.equivalent, verdict.reason)
    if equivalence_first and equivalence.value is True and options.check_solvable:
        return _solvable_as_the_truth(prepared, equivalence, options, deadline)
    explanation = None if equivalence.value is None else _explanation(
        truth, problem, domain, options, anchors, deadline, equivalence.value)
    return GradeResult(parse, solve, equivalence, domain=name, explanation=explanation)


def _solvable_as_the_truth(prepared: PreparedTruth, equivalence: StageVerdict,
                           options: GradeOptions, deadline: float) -> GradeResult:
    """:func:`grade_correct` for an answer found equivalent: it is solvable exactly when the
    ground truth is, whose verdict is computed once and kept in the prepared truth's memo."""
    parse, name = decided(True), prepared.domain.name
    own = prepared.memo.get("solvable")
    if own is None:
        own = _solve(prepared.domain, prepared.problem, deadline)
        if own.status is Status.DECIDED:
            prepared.memo["solvable"] = own
    if own.value is None:
        return GradeResult(parse, own, equivalence, domain=name)
    solve = decided(own.value, "equivalent to the ground truth, which is "
                               f"{'solvable' if own.value else 'unsolvable'}: {own.reason}")
    if own.value is False and not options.equivalence_for_unsolvable:
        return GradeResult(parse, solve, decided(False, f"prediction is unsolvable: {solve.reason}"),
                           domain=name)
    return GradeResult(parse, solve, equivalence, domain=name)


def _unparseable(reason: str, domain: str, options: GradeOptions) -> GradeResult:
    if not options.explain:
        return GradeResult(decided(False, reason), domain=domain)
    from ..equivalence.explanation import not_parseable

    return GradeResult(decided(False, reason), domain=domain, explanation=not_parseable(reason))


def _explanation(truth: Problem, problem: Problem, domain: Domain, options: GradeOptions,
                 anchors: set[str], deadline: float, equivalent: bool | None,
                 proof: str = "") -> Explanation | None:
    """The explanation of a decided verdict (``equivalent``; ``None``: the prediction is
    unsolvable, ``proof`` says why), under the same deadline (cut short past it)."""
    if not options.explain:
        return None
    from ..equivalence.explain import explain
    from ..equivalence.explanation import EQUIVALENT, NOT_EQUIVALENT, UNSOLVABLE, Explanation
    from ..equivalence.unsolvable import unsolvable_reason

    kind = UNSOLVABLE if equivalent is None else EQUIVALENT if equivalent else NOT_EQUIVALENT
    try:
        reason = unsolvable_reason(domain, problem, proof, deadline) if kind == UNSOLVABLE else None
        return explain(truth, problem, domain, kind=kind, is_placeholder=options.is_placeholder,
                       strict=options.placeholder_semantics == REACHABLE_GOAL_STATES,
                       anchored_objects=anchors, unsolvable=reason, deadline=deadline)
    except PlanetariumError as err:  # a limit or an unsupported goal: the verdict stands
        return Explanation(kind, complete=False, summary=f"explanation cut short: {err}")


_SOLVE_STATUS = {SolveStatus.TIMEOUT: Status.TIMEOUT, SolveStatus.ERROR: Status.INTERNAL_ERROR}


def _solve(domain: Domain, problem: Problem, deadline: float) -> StageVerdict:
    result = check_solvable(domain, problem, timeout_s=max(0.0, deadline - time.monotonic()))
    if result.status is SolveStatus.SOLVABLE:
        return decided(True, result.reason)
    if result.status is SolveStatus.UNSOLVABLE:
        return decided(False, result.reason)
    return undecided(_SOLVE_STATUS[result.status], f"solvability undecided: {result.reason}")
