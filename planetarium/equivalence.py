"""Algorithm 1 of the Planetarium paper: are two problems the same planning problem?

Two problems over one domain are equivalent (Definition 2) when a bijection of objects maps one
initial state onto the other and one set of reachable goal states onto the other.  The set of
reachable goal states is determined by the facts true in all of them (``fully_specify``): a state
is a reachable goal state iff it is reachable and contains them.  So comparing
``init + fully_specify(goal)`` as labelled graphs decides Definition 2 exactly, provided
fully_specify is exact.  When no goal state is reachable on either side, the goal sides agree;
when on one side only, they do not.

*Identity* mode compares the joined problem graphs (one bijection for init and goal).
*Placeholder* mode compares initial scenes and fully specified goal scenes separately, so the
goal's objects may be permuted (e.g. "build a tower of height 3" with any three blocks).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from .domains.base import Domain
from .graph import GOAL, INIT, SearchBudget, build_graph, isomorphic, with_scene
from .pddl.problem import Problem


@dataclass(frozen=True)
class Limits:
    """Resource limits for one equivalence check; running out raises ResourceLimitError."""

    timeout_s: float | None = 10.0
    max_isomorphism_steps: int | None = 5_000_000

    def budget(self) -> SearchBudget:
        deadline = None if self.timeout_s is None else time.monotonic() + self.timeout_s
        return SearchBudget(self.max_isomorphism_steps, deadline)


@dataclass(frozen=True)
class Verdict:
    """The equivalence decision with a one-line reason a person can act on."""

    equivalent: bool
    reason: str


def _predicate_counts(atoms) -> Counter:
    return Counter(a[0] for a in atoms)


def _count_difference(what: str, first: Counter, second: Counter) -> str | None:
    """Name the first predicate whose fact count differs, or None if all agree."""
    for pred in sorted(set(first) | set(second)):
        if first[pred] != second[pred]:
            return (f"{what}: the ground truth has {first[pred]} '{pred}' fact(s), "
                    f"the prediction {second[pred]}")
    return None


def _init_graph(p: Problem):
    return build_graph(p.objects, p.object_types, ((INIT, p.init),))


def compare(a: Problem, b: Problem, domain: Domain, *, is_placeholder: bool = False,
            limits: Limits = Limits()) -> Verdict:
    """Decide whether ``a`` (ground truth) and ``b`` are equivalent problems of ``domain``.

    Raises :class:`~planetarium.errors.ResourceLimitError` when a limit runs out (never a
    silent "not equivalent").
    """
    budget = limits.budget()
    # Easy cases first (Algorithm 1, lines 4-6): cheap invariants, then the initial scenes.
    if sorted(a.object_types) != sorted(b.object_types):
        return Verdict(False, f"objects differ: the ground truth has {len(a.objects)} "
                              f"({', '.join(sorted(set(a.object_types)))}), the prediction "
                              f"{len(b.objects)} ({', '.join(sorted(set(b.object_types)))})")
    differ = _count_difference("initial states differ", _predicate_counts(a.init),
                               _predicate_counts(b.init))
    if differ:
        return Verdict(False, differ)
    # One renaming that maps init and goal as written settles both modes at once; most correct
    # answers end here, so the initial scenes are compared on their own only after that fails.
    init_a, init_b = _init_graph(a), _init_graph(b)
    if _predicate_counts(a.goal) == _predicate_counts(b.goal):
        if isomorphic(with_scene(init_a, a.objects, GOAL, a.goal),
                      with_scene(init_b, b.objects, GOAL, b.goal), budget):
            return Verdict(True, "the same problem up to renaming objects")
    if not isomorphic(init_a, init_b, budget):
        return Verdict(False, "initial states differ: same facts per predicate, but no renaming "
                              "of objects maps one onto the other")

    goal_a = domain.fully_specify(a)
    budget.check()
    goal_b = domain.fully_specify(b)
    budget.check()
    if goal_a is None or goal_b is None:
        if goal_a is None and goal_b is None:
            return Verdict(True, "neither goal is reachable and the initial states match")
        side = "prediction's" if goal_b is None else "ground truth's"
        return Verdict(False, f"the {side} goal is unreachable from its initial state")
    differ = _count_difference("goals differ once fully specified", _predicate_counts(goal_a),
                               _predicate_counts(goal_b))
    if differ:
        return Verdict(False, differ)
    if is_placeholder:
        scene_a = build_graph(a.objects, a.object_types, ((GOAL, goal_a),))
        scene_b = build_graph(b.objects, b.object_types, ((GOAL, goal_b),))
        if isomorphic(scene_a, scene_b, budget):
            return Verdict(True, "equivalent up to renaming the goal's objects (placeholder mode)")
        return Verdict(False, "fully specified goals describe different arrangements")
    if isomorphic(with_scene(init_a, a.objects, GOAL, goal_a),
                  with_scene(init_b, b.objects, GOAL, goal_b), budget):
        return Verdict(True, "equivalent once goals are fully specified")
    return Verdict(False, "fully specified goals differ under every renaming that matches the "
                          "initial states (identity mode)")


def equivalent(a: Problem, b: Problem, domain: Domain, *, is_placeholder: bool = False,
               limits: Limits = Limits()) -> bool:
    """True if ``a`` and ``b`` are equivalent planning problems of ``domain``."""
    return compare(a, b, domain, is_placeholder=is_placeholder, limits=limits).equivalent
