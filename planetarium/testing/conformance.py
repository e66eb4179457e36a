"""Conformance kit for domain authors: check a ``fully_specify`` against brute force.

A new domain's ``fully_specify`` is the one piece of domain knowledge the grader trusts blindly:
one fact too many calls wrong answers equivalent, one too few calls right answers wrong.  The kit
compares it with the definition itself — the intersection of every reachable goal state,
enumerated explicitly — on small problems the author supplies or that :func:`random_problems`
draws from the domain file alone.

    from planetarium.testing.conformance import check_fully_specify, random_problems
    problems = random_problems(MY_DOMAIN, count=200, seed=0)
    report = check_fully_specify(MY_DOMAIN, problems)
    assert report.mismatches == []
    assert report.checked >= 180 and report.skipped <= 20  # a check that skips everything passes

Beyond the brute force's reach, :func:`check_against_generic` compares a domain's own
``fully_specify`` with the generic one every domain inherits (each atom settled by a witness
goal state or a proof, :mod:`planetarium.strips.forced`), on problems of any size:

    report = check_against_generic(MY_DOMAIN, my_dataset_sized_problems)
    assert report.mismatches == [] and report.skipped == 0

The semantics beyond the paper are checked the same way: :func:`check_literal_closure` (goals
with negative literals: F+ and F- against enumeration) and :func:`check_equivalence` (the
grader's verdict against the brute-force referee in identity, paper placeholder and strict
placeholder mode, with and without anchored names), on problems from
``random_problems(..., negative=True)``.

The kit is an entry point: each case (a problem, or a pair in one mode) is an item with its
own deadline of ``timeout_s`` (default 10 s, the grader's; a deadline already in force that
ends first still holds).  Every check returns a :class:`Report`: besides the mismatches, how
many cases it compared and how many it skipped because a resource limit was hit — a
``fully_specify`` that always gives up would otherwise pass — and how many of the compared
ones the domain's closed form decided (where the grader's answer is itself an enumeration,
agreeing with the enumeration proves little).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..domains.base import Domain
from ..equivalence.closure import CLOSED_FORM, Closure, candidate_atoms
from ..errors import ResourceLimitError, UnsupportedFeatureError
from ..limits import Deadline
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem, read_problem
from ..pddl.writer import problem_to_pddl
from ..strips.exact import reachable_goal_intersection
from .generators import random_walk

M = TypeVar("M")


@dataclass(frozen=True)
class Report(Generic[M]):
    """What a check found.  ``mismatches``: the disagreements; ``checked``: cases compared with
    the enumeration; ``skipped``: cases not compared because the enumeration or the grader hit
    a resource limit (or, for verdicts, the mode does not apply); ``closed_form``: checked cases
    the domain decided without enumerating (see each check).  Assert on all of them: a check
    that skipped every case has no mismatches either."""

    mismatches: list[M]
    checked: int
    skipped: int
    closed_form: int = 0


@dataclass(frozen=True)
class Mismatch:
    """One problem on which ``fully_specify`` and the brute force disagree."""

    problem: Problem
    expected: frozenset[Atom] | None  # brute force; None = no reachable goal state
    got: frozenset[Atom] | None

    @property
    def extra(self) -> frozenset[Atom]:
        """Facts claimed forced that some reachable goal state lacks (false 'equivalent')."""
        return (self.got or frozenset()) - (self.expected or frozenset())

    @property
    def missing(self) -> frozenset[Atom]:
        """Forced facts not reported (false 'not equivalent')."""
        return (self.expected or frozenset()) - (self.got or frozenset())

    def __str__(self) -> str:
        if self.expected is None or self.got is None:
            what = (f"brute force finds {'no' if self.expected is None else 'a'} reachable goal "
                    f"state, fully_specify returned {'None' if self.got is None else 'facts'}")
        else:
            what = f"extra {sorted(self.extra)}, missing {sorted(self.missing)}"
        typed = self.problem.object_types and any(t != "object" for t in self.problem.object_types)
        return f"{what}\n{problem_to_pddl(self.problem, typed=bool(typed))}"


def small_problem(domain: Domain, objects: str, init: str, goal: str) -> Problem:
    """A problem from its ``:objects`` text and init and goal facts, for hand-written cases."""
    return read_problem(f"(define (problem p) (:domain {domain.name}) (:objects {objects})"
                        f" (:init {init}) (:goal (and {goal})))", domain.definition)


def check_fully_specify(domain: Domain, problems: Iterable[Problem], *,
                        max_states: int = 20_000, timeout_s: float = 10.0) -> Report[Mismatch]:
    """Problems on which ``domain.fully_specify`` differs from state enumeration.

    Problems whose state space exceeds ``max_states``, or on which ``fully_specify`` itself gives
    up with :class:`ResourceLimitError` (past the problem's deadline of ``timeout_s`` too), are
    counted as skipped.  ``closed_form`` counts the
    checked problems the domain's ``closed_form_covers`` hook claims; on the others
    ``fully_specify`` may be the very enumeration it is compared with.
    """
    return _compare_closures(domain, problems, lambda problem: reachable_goal_intersection(
        domain.definition, problem, max_states), timeout_s)


def check_against_generic(domain: Domain, problems: Iterable[Problem], *,
                          timeout_s: float = 10.0) -> Report[Mismatch]:
    """Problems on which ``domain.fully_specify`` differs from the generic method
    (:meth:`Domain.fully_specify <planetarium.domains.base.Domain.fully_specify>` on the same
    domain file), which needs no enumeration: dataset-sized and IPC-sized problems.  Each
    problem gets a deadline of ``timeout_s`` for both sides; a problem on which either side hits
    a resource limit is counted as skipped, and ``closed_form`` counts the checked problems the
    domain's ``closed_form_covers`` claims."""
    return _compare_closures(domain, problems,
                             lambda problem: Domain.fully_specify(domain, problem), timeout_s)


def _compare_closures(domain: Domain, problems: Iterable[Problem],
                      reference: Callable[[Problem], frozenset[Atom] | None],
                      timeout_s: float) -> Report[Mismatch]:
    """``domain.fully_specify`` against ``reference`` on each problem, within a deadline of
    ``timeout_s`` per problem; a resource limit on either side skips the problem."""
    mismatches = []
    checked = skipped = closed_form = 0
    for problem in problems:
        try:
            with Deadline.start(timeout_s).applied():
                expected = reference(problem)
                got = domain.fully_specify(problem)
        except ResourceLimitError:
            skipped += 1
            continue
        checked += 1
        closed_form += domain.closed_form_covers(problem)
        if got != expected:
            mismatches.append(Mismatch(problem, expected, got))
    return Report(mismatches, checked, skipped, closed_form)


def _closure_key(closure: Closure | None) -> tuple | None:
    return None if closure is None else (closure.positive, closure.negative, closure.positive_only)


def check_literal_closure(domain: Domain, problems: Iterable[Problem], *,
                          max_states: int = 20_000, timeout_s: float = 10.0) -> Report[str]:
    """Problems (with negative goal literals) on which the grader's closure of the goal — F+
    and F- & U, closed form or the generic method — differs from explicit enumeration; past
    ``max_states`` states or the problem's deadline of ``timeout_s`` a problem is skipped.

    ``closed_form`` counts the closures the closed form decided; the others are the generic
    method's (a goal with no reachable state does not say how it was decided and is not
    counted there)."""
    from ..equivalence.closure import literal_closure, search_closure

    mismatches = []
    checked = skipped = closed_form = 0
    for problem in problems:
        try:
            with Deadline.start(timeout_s).applied():
                expected = search_closure(domain, problem, max_states)
                got = literal_closure(domain, problem)
        except ResourceLimitError:
            skipped += 1
            continue
        checked += 1
        closed_form += got is not None and got.how == CLOSED_FORM
        if _closure_key(got) != _closure_key(expected):
            mismatches.append(f"closure {_closure_key(got)} != enumerated {_closure_key(expected)}\n"
                              f"{problem_to_pddl(problem)}")
    return Report(mismatches, checked, skipped, closed_form)


def check_equivalence(domain: Domain, pairs: Iterable[tuple[Problem, Problem]], *,
                      anchors: Iterable[str] = (), max_states: int = 20_000,
                      timeout_s: float = 10.0) -> Report[str]:
    """Pairs on which :func:`~planetarium.equivalence.compare` and the brute-force referee
    disagree, in identity, paper-placeholder and strict-placeholder mode, without and with
    ``anchors``.  Each (pair, mode, anchors) comparison counts once and gets its own deadline of
    ``timeout_s``; those too large for either side (or past that deadline), or in a mode the
    pair's goals do not support, are skipped."""
    from ..equivalence import Limits, compare
    from .bruteforce import equivalent_by_definition

    modes = [(False, "paper"), (True, "paper"), (True, "reachable-goal-states")]
    mismatches = []
    checked = skipped = 0
    for a, b in pairs:
        for anchored in (frozenset(), frozenset(anchors)):
            for placeholder, semantics in modes:
                try:
                    expected = equivalent_by_definition(
                        domain.definition, a, b, is_placeholder=placeholder,
                        max_states=max_states, anchors=anchored,
                        placeholder_semantics=semantics)
                    got = compare(a, b, domain, is_placeholder=placeholder,
                                  limits=Limits(Deadline.start(timeout_s)),
                                  anchored_objects=anchored, placeholder_semantics=semantics)
                except (ResourceLimitError, UnsupportedFeatureError):
                    skipped += 1
                    continue
                checked += 1
                if got.equivalent != expected:
                    mismatches.append(
                        f"placeholder={placeholder} semantics={semantics} anchors="
                        f"{sorted(anchored)}: grader {got.equivalent} ({got.reason}), brute "
                        f"force {expected}\n{problem_to_pddl(a)}\n{problem_to_pddl(b)}")
    return Report(mismatches, checked, skipped)


def _leaf_types(definition: DomainDef) -> list[str]:
    """Types that objects get: those no other type descends from ('object' when untyped)."""
    if not definition.typed or not definition.types:
        return ["object"]
    parents = set(definition.types.values())
    return sorted(t for t in definition.types if t not in parents)


def random_problems(domain: Domain, *, count: int, seed: int = 0, objects_per_type: int = 2,
                    init_density: float = 0.35, walk_length: int = 6,
                    goal_size: int = 2, negative: bool = False) -> list[Problem]:
    """Small random problems built from the domain file alone (no domain knowledge).

    Each init is a random subset of all ground atoms (``init_density`` of them).  Most goals are
    facts of a state reached by a random walk of up to ``walk_length`` actions, so they are
    solvable and exercise the actions; one problem in four gets a random goal instead, which
    covers unsolvable goals.  With ``negative``, each goal also requires one or two random atoms
    to be false.  Deterministic in ``seed``.
    """
    definition = domain.definition
    rng = random.Random(seed)
    types = _leaf_types(definition)
    objects: list[str] = []
    object_types: list[str] = []
    for type_name in types:
        for i in range(objects_per_type):
            objects.append(f"{type_name}{i}")
            object_types.append(type_name)
    skeleton = Problem("conformance", definition.name, tuple(objects), tuple(object_types),
                       frozenset(), frozenset())
    atoms = candidate_atoms(domain, skeleton)
    problems = []
    for n in range(count):
        init = frozenset(a for a in atoms if rng.random() < init_density)
        skeleton = Problem(f"conformance-{n}", definition.name, tuple(objects),
                           tuple(object_types), init, frozenset())
        if rng.random() < 0.25:
            pool = atoms
        else:
            state = random_walk(definition, skeleton, rng, rng.randint(0, walk_length))
            pool = sorted(state - init) or sorted(state) or atoms
        goal = frozenset(rng.sample(pool, min(len(pool), rng.randint(1, goal_size))))
        negated = frozenset(rng.sample(atoms, min(len(atoms), rng.randint(1, 2)))) if negative \
            else frozenset()
        problems.append(Problem(skeleton.name, skeleton.domain, skeleton.objects,
                                skeleton.object_types, init, goal, negated))
    return problems
