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

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..domains.base import Domain
from ..equivalence import REACHABLE_GOAL_STATES, Limits, compare
from ..errors import (
    PDDLSyntaxError,
    PDDLValidationError,
    PlanetariumError,
    ResourceLimitError,
    UnsupportedFeatureError,
    raised_by_signal_handler,
)
from ..limits import Deadline, collector_paused, deadline_for
from ..pddl.extract import find_problem
from ..pddl.problem import Problem
from ..planning import SolveStatus, check_solvable
from .options import GradeOptions, GradeOptionsError, check_option_names
from .result import SKIPPED, GradeResult, Stage, StageVerdict, Status, decided, undecided
from .truths import (
    TRUTHS,
    PreparedTruth,
    TruthCache,
    load_ground_truth,
    prepare_ground_truth,
    prepared_truth,
)

if TYPE_CHECKING:  # explanations are imported when asked for: start-up of `planetarium grade`
    from ..equivalence.explanation import Explanation

__all__ = ["TRUTHS", "GradeOptions", "GradeOptionsError", "GradeResult", "PreparedTruth",
           "Stage", "StageVerdict", "Status", "TruthCache", "grade", "grade_correct",
           "grade_strict", "load_ground_truth", "prepare_ground_truth", "prepared_truth"]

#: Model output longer than this is refused before parsing (a runaway generation, not PDDL).
MAX_INPUT_CHARS = 2_000_000


def grade(gt: str | PreparedTruth, pred: str, *, options: GradeOptions | None = None,
          deadline: Deadline | None = None, domain: Domain | None = None,
          **overrides: Any) -> GradeResult:
    """Grade ``pred`` (raw model output) against ``gt`` (ground-truth PDDL, or a
    :class:`PreparedTruth` of it, e.g. from the process's memo: ``prepared_truth(gt)``, which
    batches, benchmarks and the reward use so that a ground truth is read once); never raises on
    bad input.

    ``options`` (default :class:`GradeOptions()`) with keyword ``overrides`` of its fields, e.g.
    ``grade(gt, pred, is_placeholder=True, timeout_s=5)``.  An unknown or ill-typed option is the
    caller's bug and raises (``TypeError`` / :class:`GradeOptionsError`); an unexpected failure
    inside grading is reported as status ``internal-error`` instead of crashing a batch.  Only
    exceptions of the grader's own code are converted: one raised by a signal handler of the
    caller's (a ``signal.alarm`` time limit, say) propagates, and so do ``KeyboardInterrupt``
    and ``SystemExit``.  ``deadline``: the item's :class:`~planetarium.limits.Deadline`,
    covering every stage (reading the ground truth included); without one,
    ``options.timeout_s`` from now (or the deadline in force, if it ends first).  ``domain``: a
    domain that is not registered (``Domain.from_pddl(text)``, or a plug-in object), used when
    the ground truth's ``(:domain ...)`` names it; a :class:`PreparedTruth` carries its own.
    """
    check_option_names(overrides)
    return _guarded(gt, pred, replace(options or GradeOptions(), **overrides), deadline, False,
                    _checked(domain))


def grade_correct(gt: str | PreparedTruth, pred: str, *, options: GradeOptions | None = None,
                  deadline: Deadline | None = None, domain: Domain | None = None,
                  **overrides: Any) -> GradeResult:
    """Like :func:`grade`, at the least cost for the headline metric (training rewards).

    ``correct`` is parseable, solvable and equivalent.  An answer equivalent to the ground truth
    (Definition 2: the same reachable goal states up to renaming) is solvable exactly when the
    ground truth is, so equivalence is decided first and the planner runs on the ground truth only
    — once per :class:`PreparedTruth`; an answer that is not equivalent is wrong whatever its
    solvability, so that stage is skipped (``solvable`` is ``None``).  ``correct`` equals
    :func:`grade`'s whenever both decide.  ``domain``: as for :func:`grade`.
    """
    check_option_names(overrides)
    return _guarded(gt, pred, replace(options or GradeOptions(), **overrides), deadline, True,
                    _checked(domain))


def _checked(domain: object) -> Domain | None:
    """``domain`` if it is a :class:`Domain` (or ``None``); anything else is the caller's bug,
    said at once rather than as an ``internal-error`` verdict per item."""
    if domain is None or isinstance(domain, Domain):
        return domain
    hint = " (read a domain file's text with Domain.from_pddl(text))" if isinstance(domain, str) \
        else ""
    raise TypeError(f"domain must be a planetarium.domains.Domain, got {type(domain).__name__}"
                    f"{hint}")


def _guarded(gt: str | PreparedTruth, pred: str, options: GradeOptions,
             deadline: Deadline | None, equivalence_first: bool,
             domain: Domain | None) -> GradeResult:
    try:
        with collector_paused():
            return grade_strict(gt, pred, options, deadline=deadline,
                                equivalence_first=equivalence_first, domain=domain)
    except Exception as err:  # noqa: BLE001 - last line of defence for batch grading
        if raised_by_signal_handler(err):
            raise  # the caller's own exception (e.g. its SIGALRM time limit), not a grader bug
        return GradeResult.failed(Stage.GRADER, Status.INTERNAL_ERROR,
                                  f"internal error: {type(err).__name__}: {err}")


def grade_strict(gt: str | PreparedTruth, pred: str, options: GradeOptions, *,
                 deadline: Deadline | None = None, equivalence_first: bool = False,
                 domain: Domain | None = None) -> GradeResult:
    """Grade ``pred`` against ``gt`` like :func:`grade` (``equivalence_first``: like
    :func:`grade_correct`), but let internal bugs raise (tests).

    An entry point (rule 1 of :mod:`planetarium.limits`): ``deadline`` is the item's, made by
    the caller's entry point; without one, this call is the entry point and makes it from the
    stated ``options.timeout_s`` (or takes the deadline in force, if that ends first).  It is
    installed for every stage and is also in force for the plug-in hooks that take none
    (``fully_specify``): they see it through :func:`planetarium.limits.check_deadline` (and
    :func:`~planetarium.limits.required`, where the generic engine needs the object).
    """
    deadline = deadline_for(options.timeout_s) if deadline is None else deadline
    with deadline.applied() as deadline:
        return _noting_extraction(_grade(gt, pred, options, deadline, equivalence_first, domain),
                                  pred)


def _noting_extraction(result: GradeResult, pred: str) -> GradeResult:
    """Say in the reasons when the answer held several problems: the last complete one was
    graded (:func:`planetarium.pddl.find_problem`; its scan of ``pred`` is cached)."""
    if result.failure is not None or result.parse.status is not Status.DECIDED:
        return result
    try:
        note = find_problem(pred).note
    except PDDLSyntaxError:
        return result
    if note is None:
        return result

    def noted(stage: Stage, verdict: StageVerdict) -> StageVerdict:
        if stage is not Stage.PARSE and stage is not result.stage:
            return verdict
        return replace(verdict, reason=f"{verdict.reason}; {note}" if verdict.reason else note)

    return replace(result, parse=noted(Stage.PARSE, result.parse),
                   solve=noted(Stage.SOLVE, result.solve),
                   equivalence=noted(Stage.EQUIVALENCE, result.equivalence))


def _grade(gt: str | PreparedTruth, pred: str, options: GradeOptions, deadline: Deadline,
           equivalence_first: bool, domain: Domain | None = None) -> GradeResult:
    if isinstance(gt, PreparedTruth):
        prepared = gt if gt.serves(options.relax_typing) else prepare_ground_truth(
            gt.text, options, domain=gt.domain)  # read for other options: again
    else:  # a text on its own: read it here (nothing kept, so a one-off call costs no memory)
        prepared = prepare_ground_truth(gt, options, domain=domain)
    if prepared.error is not None:
        status = Status.TIMEOUT if prepared.timed_out else Status.INVALID_INPUT
        return GradeResult.failed(Stage.GROUND_TRUTH, status, prepared.error)
    domain, truth = prepared.domain, prepared.problem
    assert domain is not None and truth is not None  # read without error
    name = domain.name
    if len(pred) > MAX_INPUT_CHARS:  # not read at all: undecided, never "not parseable"
        return GradeResult(undecided(Status.UNSUPPORTED, f"answer is {len(pred):,} characters, "
                                     f"over the {MAX_INPUT_CHARS:,}-character cap; not graded"),
                           domain=name)
    try:
        problem = domain.read_problem(pred, relax_typing=options.relax_typing)
    except ResourceLimitError as err:
        return GradeResult(undecided(Status.TIMEOUT, f"parsing undecided: {err}"), domain=name)
    except UnsupportedFeatureError as err:
        unsupported = undecided(Status.UNSUPPORTED, str(err))
        return GradeResult(decided(True), unsupported, unsupported, domain=name)
    except (PDDLSyntaxError, PDDLValidationError, RecursionError) as err:
        return _unparseable(str(err), name, options)
    parse = decided(True)
    # Where the generic engine decides equivalence, it grounds the task and finds goal states
    # anyway: solvability comes after it at almost no cost (the ground task, its proofs and
    # plans are kept), where asked first it would pay for a planner run of its own.
    solve_last = options.check_solvable and (
        equivalence_first or not domain.closed_form_covers(problem))
    solve = SKIPPED if solve_last or not options.check_solvable else \
        _solve(domain, problem, deadline)
    anchors = set(options.anchored_objects) | (set(truth.objects) if options.anchor_all else set())
    if solve.value is False and not options.equivalence_for_unsolvable:
        return _unsolvable(parse, solve, truth, problem, domain, options, anchors, deadline)
    equivalence = _equivalence(truth, problem, domain, options, anchors, prepared.memo,
                               _leaving_time_to_solve(deadline) if solve_last
                               and not equivalence_first else deadline)
    if solve_last and equivalence.value is True:
        solve = _solvable_as_the_truth(prepared, deadline)
    elif solve_last and not equivalence_first:
        solve = _solve(domain, problem, deadline)
    if solve.value is False and not options.equivalence_for_unsolvable:
        return _unsolvable(parse, solve, truth, problem, domain, options, anchors, deadline)
    explanation = None if equivalence.value is None else _explanation(
        truth, problem, domain, options, anchors, deadline, equivalence.value)
    return GradeResult(parse, solve, equivalence, domain=name, explanation=explanation)


#: Share of the time left that the equivalence check may use when solvability is decided after
#: it: the rest lets the planner still decide where the check runs out of time (an unsolvable
#: prediction is then still "not equivalent", as when solvability is asked first).
EQUIVALENCE_SHARE = 0.8


def _leaving_time_to_solve(deadline: Deadline) -> Deadline:
    return deadline.within(EQUIVALENCE_SHARE * deadline.remaining())


def _equivalence(truth: Problem, problem: Problem, domain: Domain, options: GradeOptions,
                 anchors: set[str], memo: dict, deadline: Deadline) -> StageVerdict:
    """The equivalence stage's verdict: :func:`compare`'s, or why it is undecided."""
    try:
        verdict = compare(truth, problem, domain, is_placeholder=options.is_placeholder,
                          limits=Limits(deadline), anchored_objects=anchors,
                          placeholder_semantics=options.placeholder_semantics,
                          truth_memo=memo)
    except ResourceLimitError as err:
        return undecided(Status.TIMEOUT, f"equivalence undecided: {err}")
    except UnsupportedFeatureError as err:
        return undecided(Status.UNSUPPORTED, f"equivalence undecided: {err}")
    except PlanetariumError as err:
        return undecided(Status.INTERNAL_ERROR, f"equivalence failed: {err}")
    return decided(verdict.equivalent, verdict.reason)


def _unsolvable(parse: StageVerdict, solve: StageVerdict, truth: Problem, problem: Problem,
                domain: Domain, options: GradeOptions, anchors: set[str],
                deadline: Deadline) -> GradeResult:
    """The result for a prediction proven unsolvable: not equivalent, for that reason (the
    module docstring's rule)."""
    return GradeResult(parse, solve, decided(False, f"prediction is unsolvable: {solve.reason}"),
                       domain=domain.name, explanation=_explanation(
                           truth, problem, domain, options, anchors, deadline, None,
                           solve.reason))


def _solvable_as_the_truth(prepared: PreparedTruth, deadline: Deadline) -> StageVerdict:
    """The solvability of an answer found equivalent: it is solvable exactly when the ground
    truth is, whose verdict is computed once and kept in the prepared truth's memo."""
    assert prepared.domain is not None and prepared.problem is not None  # read without error
    own = prepared.memo.get("solvable")
    if own is None:
        own = _solve(prepared.domain, prepared.problem, deadline)
        if own.status is Status.DECIDED:
            prepared.memo["solvable"] = own
    if own.value is None:
        return own
    return decided(own.value, "equivalent to the ground truth, which is "
                              f"{'solvable' if own.value else 'unsolvable'}: {own.reason}")


def _unparseable(reason: str, domain: str, options: GradeOptions) -> GradeResult:
    if not options.explain:
        return GradeResult(decided(False, reason), domain=domain)
    from ..equivalence.explanation import not_parseable

    return GradeResult(decided(False, reason), domain=domain, explanation=not_parseable(reason))


def _explanation(truth: Problem, problem: Problem, domain: Domain, options: GradeOptions,
                 anchors: set[str], deadline: Deadline, equivalent: bool | None,
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


def _solve(domain: Domain, problem: Problem, deadline: Deadline) -> StageVerdict:
    result = check_solvable(domain, problem, deadline)
    if result.status is SolveStatus.SOLVABLE:
        return decided(True, result.reason)
    if result.status is SolveStatus.UNSOLVABLE:
        return decided(False, result.reason)
    return undecided(_SOLVE_STATUS[result.status], f"solvability undecided: {result.reason}")
