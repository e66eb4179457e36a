"""Grade a generated problem against its ground truth: parseable, solvable, equivalent.

Results are data: a frozen :class:`GradeResult` with a verdict per stage (``True``, ``False`` or
``None`` for undecided), a status (``ok`` / ``unsupported`` / ``timeout`` / ``error``) and a reason
that names the offending atom or line.  Grading never raises on bad model output.

The rule for unsolvable predictions follows the paper's protocol: equivalence is decided for
solvable predictions; a prediction proven unsolvable is reported ``equivalent=False`` with that
reason (its ground truth is solvable, so it cannot be the same problem).  Pass
``equivalence_for_unsolvable=True`` to decide equivalence anyway — under Definition 2 two
unsolvable problems with isomorphic initial states are equivalent, which matters only when the
ground truth itself is unsolvable.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from .domains import get_domain
from .domains.base import Domain
from .equivalence import PAPER, PLACEHOLDER_SEMANTICS, Limits, compare
from .errors import (
    PDDLSyntaxError,
    PDDLValidationError,
    PlanetariumError,
    ResourceLimitError,
    UnsupportedFeatureError,
)
from .limits import time_limit
from .pddl.problem import Problem, read_problem

OK, UNSUPPORTED, TIMEOUT, ERROR = "ok", "unsupported", "timeout", "error"

#: Model output longer than this is refused before parsing (a runaway generation, not PDDL).
MAX_INPUT_CHARS = 2_000_000


@dataclass(frozen=True)
class GradeResult:
    """The verdict on one (ground truth, prediction) pair."""

    parseable: bool | None
    solvable: bool | None
    equivalent: bool | None
    status: str
    reason: str
    domain: str | None = None

    @property
    def correct(self) -> bool:
        """The paper's headline metric: parseable, solvable and equivalent."""
        return bool(self.parseable and self.solvable and self.equivalent)

    def to_dict(self) -> dict:
        return asdict(self)


def load_ground_truth(gt: str, *, relax_typing: bool = False) -> tuple[Domain, Problem]:
    """Parse a ground-truth problem, taking its domain from its ``(:domain ...)``."""
    found: list[Domain] = []

    def lookup(name: str):
        found.append(get_domain(name))
        return found[0].definition

    problem = read_problem(gt, lookup, relax_typing=relax_typing)
    return found[0], problem


def _solvable(domain: Domain, problem: Problem, deadline: float) -> tuple[bool | None, str]:
    from .planning import check_solvable

    result = check_solvable(domain, problem, timeout_s=max(0.0, deadline - time.monotonic()))
    verdict = {"solvable": True, "unsolvable": False}.get(result.status)
    return verdict, result.reason


def grade(gt: str, pred: str, **options) -> GradeResult:
    """Grade ``pred`` (raw model output) against ``gt`` (ground-truth PDDL); never raises.

    Options: ``is_placeholder``, ``relax_typing`` (ignore object types, the paper's relaxed
    metric), ``check_solvable`` (``False`` leaves ``solvable`` undecided),
    ``equivalence_for_unsolvable``, ``timeout_s``, ``anchored_objects`` / ``anchor_all``
    (name-anchored equivalence) and ``placeholder_semantics`` — see :func:`grade_strict`.  An unexpected
    internal failure is reported as status ``error`` instead of crashing a batch.
    """
    unknown = set(options) - _OPTIONS
    if unknown:  # the caller's bug, not the model's: fail loudly
        raise TypeError(f"grade() got unknown option(s): {', '.join(sorted(unknown))}")
    _check_modes(options.get("anchored_objects", ()), options.get("placeholder_semantics", PAPER))
    try:
        with time_limit(options.get("timeout_s", 10.0)):
            return grade_strict(gt, pred, **options)
    except Exception as err:  # noqa: BLE001 - last line of defence for batch grading
        return GradeResult(None, None, None, ERROR, f"internal error: {type(err).__name__}: {err}")


def _check_modes(anchored_objects: Iterable[str], placeholder_semantics: str) -> None:
    """The caller's bugs, refused loudly (not reported as a grading error)."""
    if isinstance(anchored_objects, str) or not all(isinstance(n, str) for n in anchored_objects):
        raise TypeError("anchored_objects must be an iterable of object names")
    if placeholder_semantics not in PLACEHOLDER_SEMANTICS:
        raise ValueError(f"placeholder_semantics must be one of {PLACEHOLDER_SEMANTICS}")


def grade_strict(gt: str, pred: str, *, is_placeholder: bool = False, relax_typing: bool = False,
          check_solvable: bool = True, equivalence_for_unsolvable: bool = False,
          timeout_s: float = 10.0, anchored_objects: Iterable[str] = (), anchor_all: bool = False,
          placeholder_semantics: str = PAPER) -> GradeResult:
    """Grade ``pred`` against ``gt``; like :func:`grade` but lets internal bugs raise.

    ``anchored_objects``: object names every renaming must keep (a name missing on either side
    means not equivalent); ``anchor_all``: anchor every object of the ground truth.
    ``placeholder_semantics``: ``"paper"`` (default, Algorithm 1) or
    ``"reachable-goal-states"`` (the renaming must map the sets of reachable goal states).
    """
    _check_modes(anchored_objects, placeholder_semantics)
    deadline = time.monotonic() + timeout_s
    try:
        domain, truth = load_ground_truth(gt, relax_typing=relax_typing)
    except (PlanetariumError, RecursionError) as err:
        return GradeResult(None, None, None, ERROR, f"ground truth: {err}")
    name = domain.name
    if len(pred) > MAX_INPUT_CHARS:
        return GradeResult(False, None, None, OK,
                           f"output has {len(pred)} characters, over the {MAX_INPUT_CHARS} limit", name)
    try:
        problem = read_problem(pred, domain.definition, relax_typing=relax_typing)
    except UnsupportedFeatureError as err:
        return GradeResult(True, None, None, UNSUPPORTED, str(err), name)
    except (PDDLSyntaxError, PDDLValidationError, RecursionError) as err:
        return GradeResult(False, None, None, OK, str(err), name)

    solvable, solve_reason = None, "solvability not checked"
    status, reasons = OK, []
    if check_solvable:
        try:
            solvable, solve_reason = _solvable(domain, problem, deadline)
        except ResourceLimitError as err:
            solvable, solve_reason = None, f"solvability undecided: {err}"
        if solvable is None:
            status = TIMEOUT
            reasons.append(solve_reason)

    if solvable is False and not equivalence_for_unsolvable:
        return GradeResult(True, False, False, status, f"prediction is unsolvable: {solve_reason}", name)
    # PDDL names are case-insensitive (the reader lower-cases them), so anchors are too
    anchors = {n.lower() for n in anchored_objects} | (set(truth.objects) if anchor_all else set())
    try:
        verdict = compare(truth, problem, domain, is_placeholder=is_placeholder,
                          limits=Limits(timeout_s=max(0.0, deadline - time.monotonic())),
                          anchored_objects=anchors, placeholder_semantics=placeholder_semantics)
    except ResourceLimitError as err:
        return GradeResult(True, solvable, None, TIMEOUT, f"equivalence undecided: {err}", name)
    except UnsupportedFeatureError as err:
        return GradeResult(True, solvable, None, UNSUPPORTED, f"equivalence undecided: {err}", name)
    except PlanetariumError as err:
        return GradeResult(True, solvable, None, ERROR, f"equivalence failed: {err}", name)
    reasons.append(verdict.reason)
    return GradeResult(True, solvable, verdict.equivalent, status, "; ".join(reasons), name)


_OPTIONS = frozenset(inspect.signature(grade_strict).parameters) - {"gt", "pred"}
