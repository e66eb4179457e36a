"""Conformance kit for domain authors: check a ``fully_specify`` against brute force.

A new domain's ``fully_specify`` is the one piece of domain knowledge the grader trusts blindly:
one fact too many calls wrong answers equivalent, one too few calls right answers wrong.  The kit
compares it with the definition itself — the intersection of every reachable goal state,
enumerated explicitly — on small problems the author supplies or that :func:`random_problems`
draws from the domain file alone.

    from planetarium.testing.conformance import check_fully_specify, random_problems
    problems = random_problems(MY_DOMAIN, count=200, seed=0)
    assert check_fully_specify(MY_DOMAIN, problems) == []

The semantics beyond the paper are checked the same way: :func:`check_literal_closure` (goals
with negative literals: F+ and F- against enumeration) and :func:`check_equivalence` (the
grader's verdict against the brute-force referee in identity, paper placeholder and strict
placeholder mode, with and without anchored names), on problems from
``random_problems(..., negative=True)``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..domains.base import Domain
from ..errors import ResourceLimitError, UnsupportedFeatureError
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem, read_problem
from ..pddl.writer import problem_to_pddl
from ..strips.grounding import candidates_for, ground_actions
from ..strips.exact import reachable_goal_intersection


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
                        max_states: int = 20_000) -> list[Mismatch]:
    """Problems on which ``domain.fully_specify`` differs from state enumeration.

    Problems whose state space exceeds ``max_states`` (or on which ``fully_specify`` itself
    gives up with :class:`ResourceLimitError`) are skipped: they decide nothing.
    """
    mismatches = []
    for problem in problems:
        try:
            expected = reachable_goal_intersection(domain.definition, problem, max_states)
            got = domain.fully_specify(problem)
        except ResourceLimitError:
            continue
        if got != expected:
            mismatches.append(Mismatch(problem, expected, got))
    return mismatches


def _closure_key(closure) -> tuple | None:
    return None if closure is None else (closure.positive, closure.negative, closure.positive_only)


def check_literal_closure(domain: Domain, problems: Iterable[Problem], *,
                          max_states: int = 20_000) -> list[str]:
    """Problems (with negative goal literals) on which the grader's closure of the goal — F+
    and F- & U, closed form or bounded search — differs from explicit enumeration."""
    from ..equivalence.closure import literal_closure, search_closure

    mismatches = []
    for problem in problems:
        try:
            expected = search_closure(domain, problem, max_states)
            got = literal_closure(domain, problem)
        except ResourceLimitError:
            continue
        if _closure_key(got) != _closure_key(expected):
            mismatches.append(f"closure {_closure_key(got)} != enumerated {_closure_key(expected)}\n"
                              f"{problem_to_pddl(problem)}")
    return mismatches


def check_equivalence(domain: Domain, pairs: Iterable[tuple[Problem, Problem]], *,
                      anchors: Iterable[str] = (), max_states: int = 20_000) -> list[str]:
    """Pairs on which :func:`~planetarium.equivalence.compare` and the brute-force referee
    disagree, in identity, paper-placeholder and strict-placeholder mode, without and with
    ``anchors``.  Pairs too large for either are skipped."""
    from ..equivalence import compare
    from .bruteforce import equivalent_by_definition

    modes = [(False, "paper"), (True, "paper"), (True, "reachable-goal-states")]
    mismatches = []
    for a, b in pairs:
        for anchored in (frozenset(), frozenset(anchors)):
            for placeholder, semantics in modes:
                try:
                    expected = equivalent_by_definition(
                        domain.definition, a, b, is_placeholder=placeholder,
                        max_states=max_states, anchors=anchored,
                        placeholder_semantics=semantics)
                    got = compare(a, b, domain, is_placeholder=placeholder,
                                  anchored_objects=anchored, placeholder_semantics=semantics)
                except (ResourceLimitError, UnsupportedFeatureError):
                    continue
                if got.equivalent != expected:
                    mismatches.append(
                        f"placeholder={placeholder} semantics={semantics} anchors="
                        f"{sorted(anchored)}: grader {got.equivalent} ({got.reason}), brute "
                        f"force {expected}\n{problem_to_pddl(a)}\n{problem_to_pddl(b)}")
    return mismatches


def _leaf_types(definition: DomainDef) -> list[str]:
    """Types that objects get: those no other type descends from ('object' when untyped)."""
    if not definition.typed or not definition.types:
        return ["object"]
    parents = set(definition.types.values())
    return sorted(t for t in definition.types if t not in parents)


def _all_atoms(definition: DomainDef, problem: Problem) -> list[Atom]:
    atoms = []
    for predicate, param_types in sorted(definition.predicates.items()):
        pools = [candidates_for(definition, problem, t) for t in param_types]
        atoms.extend((predicate, *args) for args in itertools.product(*pools))
    return atoms


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
    atoms = _all_atoms(definition, skeleton)
    problems = []
    for n in range(count):
        init = frozenset(a for a in atoms if rng.random() < init_density)
        skeleton = Problem(f"conformance-{n}", definition.name, tuple(objects),
                           tuple(object_types), init, frozenset())
        if rng.random() < 0.25:
            pool = atoms
        else:
            actions = list(ground_actions(definition, skeleton))
            state = init
            for _ in range(rng.randint(0, walk_length)):
                applicable = [a for a in actions if a.applicable(state)]
                if not applicable:
                    break
                state = rng.choice(applicable).apply(state)
            pool = sorted(state - init) or sorted(state) or atoms
        goal = frozenset(rng.sample(pool, min(len(pool), rng.randint(1, goal_size))))
        negated = frozenset(rng.sample(atoms, min(len(atoms), rng.randint(1, 2)))) if negative \
            else frozenset()
        problems.append(Problem(skeleton.name, skeleton.domain, skeleton.objects,
                                skeleton.object_types, init, goal, negated))
    return problems
