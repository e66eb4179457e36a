"""``planetarium.evaluate``: the original Planetarium package's entry point, on this grader.

Code written against the original package calls
``planetarium.evaluate(gt_pddl_str, pred_pddl_str)`` and unpacks ``(parseable, solveable,
equivalent)``; it keeps working when only the install changes.  The meaning is the original's:

* ``parseable``: the prediction is read as a problem of the ground truth's domain;
* ``solveable``: with ``check_solveable`` (default), a plan exists for the prediction; without it,
  always ``False`` (the original's documented value) and equivalence is decided regardless;
* ``equivalent``: decided only for a solvable prediction when solvability is checked.

The answers are booleans, so anything this grader leaves *undecided* (a time limit, PDDL outside
the fragment it decides, an unreadable ground truth) comes back ``False`` and is logged as
undecided on the ``planetarium`` logger — use :func:`planetarium.grading.grade` to see it as data.
A *timeout* is logged apart (``logging.WARNING``, "timed out"), since the tuple cannot tell it
from "wrong".  ``domain_str`` is the domain's PDDL text, as in the original: a domain that is not
registered is graded with it (as ``grade --domain`` does); one that is registered is graded with
the registered definition.  The original ran Fast Downward and VAL from paths given as arguments
(``val``, ``fast_downward``, ``alias``, ...); planning and validation are built in here, so such
arguments are accepted and ignored, with a note logged once per argument name.  Keyword
arguments that are :class:`~planetarium.grading.GradeOptions` fields (``timeout_s``,
``relax_typing``, ...) apply.  Exceptions are the grader's (:func:`~planetarium.grading.grade`):
bad input is an answer, never an exception, while an exception raised by the caller's own
signal handler (a ``signal.alarm`` time limit) reaches the caller.

The original's other public names work too, on this grader: ``planetarium.DOMAINS`` (domain
name -> domain PDDL text), ``planetarium.builder.build`` (a problem as a :class:`ProblemGraph`),
``planetarium.oracle.fully_specify`` / ``plan`` / ``plan_to_string``,
``planetarium.metric.equals`` / ``isomorphic``, ``planetarium.downward.plan`` / ``validate``
(built in, no Fast Downward or VAL) and the module ``planetarium.evaluate`` (the modules of
those names are thin fronts on the functions here).  Each call is an entry point with its own
time limit: ``evaluate`` takes ``timeout_s`` as a grading option, and ``oracle.fully_specify``,
``oracle.plan`` and ``downward.plan`` take a keyword ``timeout_s`` (default
:data:`TIMEOUT_S`, the grader's 10 s; the original had none) and raise
:class:`~planetarium.errors.ResourceLimitError` past it.  Two do not, and fail in one line that says
what to use: ``DOMAINS["rover"]`` (the original's multi-rover domain is not built in) and
``planetarium.graph``'s ``ProblemGraph`` / ``SceneGraph`` (``planetarium.graph`` is this
package's isomorphism module; they are in :mod:`planetarium.builder`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from functools import cached_property, lru_cache
from typing import Any

import rustworkx as rx

from .domains import Domain, available_domains, get_domain
from .errors import PlanetariumError, ResourceLimitError, UnsupportedFeatureError
from .grading import (
    GradeOptions,
    GradeResult,
    PreparedTruth,
    Status,
    grade,
    load_ground_truth,
    prepare_ground_truth,
)
from .graph import GOAL, INIT, SearchBudget, build_graph, isomorphic
from .limits import deadline_for
from .pddl import Atom, Problem
from .planning import SolveStatus, check_solvable
from .strips.plan_io import GroundStep, format_plan
from .strips.validate import validate_plan

log = logging.getLogger("planetarium")

_OPTION_NAMES = frozenset(f.name for f in fields(GradeOptions))
#: The time limit of one ``oracle.fully_specify`` / ``oracle.plan`` / ``downward.plan`` call,
#: in seconds: the grader's default (``GradeOptions.timeout_s``), as ``evaluate`` has.
TIMEOUT_S = GradeOptions().timeout_s
_noted: set[str] = set()


def evaluate(source_pddl_str: str, target_pddl_str: str, domain_str: str | None = None,
             is_placeholder: bool = False, check_solveable: bool = True,
             **kwargs: Any) -> tuple[bool, bool, bool]:
    """``(parseable, solveable, equivalent)`` of ``target_pddl_str`` against the ground truth
    ``source_pddl_str``, as the original package's ``evaluate`` answers (module docstring).

    ``domain_str``: the domain's PDDL text; needed only for a domain that is not registered.
    """
    options = {k: v for k, v in kwargs.items() if k in _OPTION_NAMES}
    _note_ignored([k for k in kwargs if k not in _OPTION_NAMES])
    options.update(is_placeholder=is_placeholder, check_solvable=check_solveable)
    truth = _truth_with(source_pddl_str, domain_str, GradeOptions(**options))
    result = grade(truth, target_pddl_str, **options)
    if result.status not in (Status.DECIDED, Status.SKIPPED):
        _log_undecided(result, options.get("timeout_s", GradeOptions().timeout_s))
    solveable = check_solveable and result.solvable is True
    return (result.parseable is True, solveable,
            result.equivalent is True and (solveable or not check_solveable))


def _truth_with(gt: str, domain_str: str | None, options: GradeOptions) -> str | PreparedTruth:
    """The ground truth to grade: its text when its domain is registered, else read with the
    domain ``domain_str`` defines (an unreadable ``domain_str`` makes the pair undecided)."""
    if not domain_str:
        return gt
    try:
        domain = _domain_from_text(domain_str)
    except PlanetariumError as err:
        return PreparedTruth(gt, options.relax_typing, error=f"domain_str: {err}")
    if domain.name in available_domains():
        if _normalized(available_domains()[domain.name].pddl) != _normalized(domain_str):
            _note_once(f"domain_str:{domain.name}", "planetarium: domain_str defines the registered "
                       f"domain '{domain.name}'; graded with the registered definition")
        return gt
    return prepare_ground_truth(gt, options, domain=domain)


@lru_cache(maxsize=32)
def _domain_from_text(text: str) -> Domain:
    """A domain that is not registered, from its PDDL text (kept: its parse and planners are
    reused by every call that passes the same text)."""
    return Domain.from_pddl(text)


def _normalized(text: str) -> list[str]:
    """The PDDL tokens of ``text``, lower case, comments dropped (layout does not matter)."""
    return re.findall(r"[()]|[^\s()]+", re.sub(r";[^\n]*", "", text).lower())


def _note_ignored(names: list[str], where: str = "planetarium.evaluate") -> None:
    for name in names:
        _note_once(f"{where}:{name}", f"{where}: argument {name!r} is accepted for compatibility "
                   "with the original package and ignored (planning and plan validation are "
                   "built in)")


def _note_once(key: str, message: str) -> None:
    if key not in _noted:
        _noted.add(key)
        log.info(message)


def _log_undecided(result: GradeResult, timeout_s: float) -> None:
    if result.status is Status.TIMEOUT:
        log.warning("planetarium.evaluate: timed out (%s stage, limit %s s), answered False: an "
                    "undecided pair, not a wrong one; raise timeout_s, or use "
                    "planetarium.grading.grade to see timeouts as data: %s",
                    result.stage, timeout_s, result.reason)
        return
    level = logging.WARNING if result.status is Status.UNSUPPORTED else logging.ERROR
    log.log(level, "planetarium.evaluate: undecided (%s at %s), answered False: %s",
            result.status, result.stage, result.reason)


#: Names the original package had that this one has under another name or not at all, and
#: what to use instead (the one line a lookup of them fails with).
MISSING_DOMAINS = {
    "rover": "the original package's 'rover' domain is not built in here (the built-in rover "
             "domain is 'rover-single', one rover): pass its PDDL text as domain_str, or "
             "register it as a domain plug-in",
}


class Domains(dict[str, str]):
    """``planetarium.DOMAINS``: a dict whose failed lookup says what to use instead."""

    def __missing__(self, name: str) -> str:
        why = MISSING_DOMAINS.get(name, "not a registered domain")
        raise KeyError(f"{name!r}: {why}; DOMAINS has {', '.join(sorted(self))}")


def domains() -> Domains:
    """``planetarium.DOMAINS``: each registered domain's name and PDDL text."""
    return Domains({name: domain.pddl for name, domain in available_domains().items()})


def downward_plan(domain: str, problem: str, downward: str | None = None,
                  alias: str | None = None, *, timeout_s: float = TIMEOUT_S,
                  **kwargs: Any) -> tuple[str | None, float]:
    """``downward.plan``: ``(plan text, cost)`` for ``problem`` in ``domain`` (both PDDL text),
    ``(None, inf)`` when no plan exists; the cost is the plan's length (the domains have unit
    costs).  The original ran Fast Downward (``downward``, ``alias``, its options); the
    built-in planner plans here and validates its plan, so those are accepted and ignored.
    :class:`~planetarium.errors.ResourceLimitError` past ``timeout_s`` (:func:`plan`)."""
    _note_ignored([name for name, value in (("downward", downward), ("alias", alias))
                   if value is not None] + list(kwargs), "planetarium.downward.plan")
    try:
        steps = plan(build(problem, domain), timeout_s=timeout_s)
    except ValueError:  # none exists (an unreadable problem is a PlanetariumError, raised)
        return None, float("inf")
    return plan_to_string(steps), float(len(steps))


def downward_validate(domain: str, problem: str, plan_str: str, val: str | None = None) -> bool:
    """``downward.validate``: whether ``plan_str`` solves ``problem`` in ``domain`` (PDDL
    text).  The original ran VAL (``val``); the built-in validator replays the plan here."""
    _note_ignored(["val"] if val is not None else [], "planetarium.downward.validate")
    graph = build(problem, domain)
    return validate_plan(graph.domain_definition.definition, graph.problem, plan_str).ok


@dataclass(frozen=True, eq=False)
class SceneGraph:
    """One scene of a problem (its initial state or its goal) as the paper's scene graph.

    Equal when the objects, their types and the facts are the same (names included);
    :func:`isomorphic` compares up to renaming objects.
    """

    domain: str
    objects: tuple[str, ...]
    object_types: tuple[str, ...]
    facts: frozenset[Atom]
    scene: str

    @cached_property
    def graph(self) -> rx.PyDiGraph:
        """Object nodes labelled by type, fact nodes by predicate and scene, edges by position."""
        return build_graph(self.objects, self.object_types, [(self.scene, self.facts)])

    def _key(self) -> tuple:
        return (self.domain, frozenset(zip(self.objects, self.object_types, strict=True)),
                self.facts, self.scene)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SceneGraph) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(frozen=True, eq=False)
class ProblemGraph:
    """A problem as the original's ``builder.build`` returned it: both scenes in one graph.

    ``problem`` is this package's :class:`~planetarium.pddl.Problem`; ``domain`` the domain's name.
    """

    problem: Problem
    domain_definition: Domain

    @property
    def domain(self) -> str:
        return self.domain_definition.name

    def _scene(self, scene: str, facts: frozenset[Atom]) -> SceneGraph:
        return SceneGraph(self.domain, self.problem.objects, self.problem.object_types, facts, scene)

    def init(self) -> SceneGraph:
        return self._scene(INIT, self.problem.init)

    def goal(self) -> SceneGraph:
        return self._scene(GOAL, self.problem.goal)

    def decompose(self) -> tuple[SceneGraph, SceneGraph]:
        return self.init(), self.goal()

    @cached_property
    def graph(self) -> rx.PyDiGraph:
        return build_graph(self.problem.objects, self.problem.object_types,
                           [(INIT, self.problem.init), (GOAL, self.problem.goal)])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProblemGraph) and self.decompose() == other.decompose()

    def __hash__(self) -> int:
        return hash(self.decompose())


def build(problem: str, domain_str: str | None = None) -> ProblemGraph:
    """``builder.build``: read a PDDL problem (raw model output is fine) into a
    :class:`ProblemGraph`; its domain is the registered one its ``(:domain)`` names, or the one
    ``domain_str`` defines.  Raises a :class:`~planetarium.errors.PlanetariumError` subclass
    (a ``SyntaxError`` / ``ValueError`` too) when it cannot be read."""
    domain, parsed = load_ground_truth(
        problem, domain=_domain_from_text(domain_str) if domain_str else None)
    return ProblemGraph(parsed, domain)


def _with_domain(problem: ProblemGraph, domain: str | None) -> ProblemGraph:
    """``problem`` read as a problem of the registered domain ``domain`` (default: its own)."""
    if domain is None or domain.lower() == problem.domain:
        return problem
    return ProblemGraph(problem.problem, get_domain(domain))


def fully_specify(problem: ProblemGraph, domain: str | None = None,
                  return_reduced: bool = False, *, timeout_s: float = TIMEOUT_S) -> ProblemGraph:
    """``oracle.fully_specify``: the problem with its goal replaced by every fact true in all
    reachable goal states (the paper's fully specified goal).  ``return_reduced`` is accepted
    and ignored (this package has no reduced graphs).  Raises ``ValueError`` when no goal state
    is reachable, :class:`~planetarium.errors.UnsupportedFeatureError` for goals beyond a
    conjunction of atoms, :class:`~planetarium.errors.ResourceLimitError` past ``timeout_s``
    seconds (or a deadline already in force that ends first).
    """
    problem = _with_domain(problem, domain)
    if not problem.problem.has_plain_goal:
        raise UnsupportedFeatureError("fully_specify takes goals that are conjunctions of atoms; "
                                      "planetarium.grading.grade decides the others")
    with deadline_for(timeout_s).applied():
        goal = problem.domain_definition.fully_specify(problem.problem)
    if goal is None:
        raise ValueError("no goal state is reachable, so the goal has no fully specified form")
    return ProblemGraph(replace(problem.problem, goal=goal), problem.domain_definition)


def plan(problem: ProblemGraph, domain: str | None = None, *,
         timeout_s: float = TIMEOUT_S) -> list[GroundStep]:
    """``oracle.plan``: a validated plan, each step ``(action, arg1, ...)``.  Raises
    ``ValueError`` when none exists and :class:`~planetarium.errors.ResourceLimitError` when the
    search runs past ``timeout_s`` seconds (or a deadline already in force that ends first)."""
    problem = _with_domain(problem, domain)
    found = check_solvable(problem.domain_definition, problem.problem, deadline_for(timeout_s))
    if found.status is SolveStatus.SOLVABLE and found.plan is not None:
        return list(found.plan)
    if found.status is SolveStatus.UNSOLVABLE:
        raise ValueError(f"no plan exists: {found.reason}")
    if found.status is SolveStatus.TIMEOUT:
        raise ResourceLimitError(f"planning ran past timeout_s={timeout_s:g} s: {found.reason}")
    raise PlanetariumError(f"planning undecided ({found.status}): {found.reason}")


def plan_to_string(actions: Iterable[Iterable[str]]) -> str:
    """``oracle.plan_to_string``: the plan as PDDL plan text, one ``(action arg ...)`` a line."""
    return format_plan(actions)


def graphs_isomorphic(source: ProblemGraph | SceneGraph, target: ProblemGraph | SceneGraph) -> bool:
    """``metric.isomorphic``: the graphs are the same up to renaming objects (types, predicates,
    argument positions and scenes kept).  Past the search budget it raises
    :class:`~planetarium.errors.ResourceLimitError` rather than answer."""
    return isomorphic(source.graph, target.graph, SearchBudget())


def graphs_equal(source: ProblemGraph, target: ProblemGraph, is_placeholder: bool = False) -> bool:
    """``metric.equals``: the two problem graphs as given (fully specify them first to compare
    goals by meaning) are isomorphic — whole (identity mode), or scene by scene with separate
    renamings (placeholder mode)."""
    if source == target:
        return True
    if not is_placeholder:
        return graphs_isomorphic(source, target)
    return all(graphs_isomorphic(a, b) for a, b in zip(source.decompose(), target.decompose(),
                                                          strict=True))
