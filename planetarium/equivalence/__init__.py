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
goal's objects may be permuted (e.g. "build a tower of height 3" with any three blocks).  With
``placeholder_semantics="reachable-goal-states"`` the renaming of the goal must instead map one
set of reachable goal states onto the other (:mod:`planetarium.equivalence.strict`).

Beyond the paper: goals with negative literals compare ``F+`` and ``F-`` closures
(:mod:`planetarium.equivalence.closure`, negative facts as their own scene ``goal-false``); goals with
``or`` / ``exists`` / ... compare explicit goal-state sets; *anchored* objects get labels carrying
their names, so every renaming must keep them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

import rustworkx as rx

from ..domains.base import Domain
from ..graph import (
    GOAL,
    GOAL_FALSE,
    INIT,
    SearchBudget,
    isomorphic,
    problem_graph,
)
from ..limits import Deadline, required
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..strips.symmetry import domain_constants
from .closure import Closure, literal_closure
from .shared_task import asked_in_truth_names, renamed_closure, renamed_goal


class PlaceholderSemantics(str, Enum):
    """How placeholder mode reads "the same goal with any objects"."""

    #: Algorithm 1: initial scenes and fully specified goal scenes isomorphic, separately.
    PAPER = "paper"
    #: Some renaming maps one problem's reachable goal states onto the other's.
    REACHABLE_GOAL_STATES = "reachable-goal-states"

    def __str__(self) -> str:
        return self.value


PAPER = PlaceholderSemantics.PAPER
REACHABLE_GOAL_STATES = PlaceholderSemantics.REACHABLE_GOAL_STATES
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one equivalence check; running out raises ResourceLimitError.

    ``deadline``: the item's :class:`~planetarium.limits.Deadline` (``None``: the deadline in
    force; with neither the check raises :class:`~planetarium.limits.MissingDeadlineError` —
    there is no default limit).
    """

    deadline: Deadline | None = None
    max_isomorphism_steps: int | None = 5_000_000

    def budget(self) -> SearchBudget:
        return SearchBudget(self.max_isomorphism_steps,
                            required("an equivalence check", self.deadline))


@dataclass(frozen=True)
class Verdict:
    """The equivalence decision with a one-line reason a person can act on."""

    equivalent: bool
    reason: str


def _predicate_counts(atoms: Iterable[Atom]) -> Counter[str]:
    return Counter(a[0] for a in atoms)


def _count_difference(what: str, first: Counter[str], second: Counter[str]) -> str | None:
    """Name the first predicate whose fact count differs, or None if all agree."""
    for pred in sorted(set(first) | set(second)):
        if first[pred] != second[pred]:
            return (f"{what}: the ground truth has {first[pred]} '{pred}' fact(s), "
                    f"the prediction {second[pred]}")
    return None


def _graph(p: Problem, anchors: frozenset[str],
           *scenes: tuple[str, Iterable[Atom]]) -> rx.PyDiGraph:
    return problem_graph(p.objects, p.object_types, scenes, anchors)


def _missing_anchor(a: Problem, b: Problem, anchors: frozenset[str]) -> str | None:
    for name in sorted(anchors):
        for side, problem in (("ground truth", a), ("prediction", b)):
            if name not in problem.type_of:
                return f"anchored object '{name}' is missing from the {side}"
    return None


def compare(a: Problem, b: Problem, domain: Domain, *, is_placeholder: bool = False,
            limits: Limits = Limits(), anchored_objects: Iterable[str] = (),
            placeholder_semantics: PlaceholderSemantics | str = PAPER,
            truth_memo: dict | None = None) -> Verdict:
    """Decide whether ``a`` (ground truth) and ``b`` are equivalent problems of ``domain``.

    ``anchored_objects``: names every renaming must keep (each must exist on both sides).
    ``placeholder_semantics``: ``"paper"`` (Algorithm 1) or ``"reachable-goal-states"`` (see
    :mod:`planetarium.equivalence.strict`).  Raises :class:`~planetarium.errors.ResourceLimitError` when a
    limit runs out (never a silent "not equivalent") and
    :class:`~planetarium.errors.UnsupportedFeatureError` for goal formulas too large to decide.
    ``truth_memo``: a dict kept with ``a`` by a caller that compares many problems with it; what
    depends on ``a`` alone (its graphs, its fully specified goal) is computed once and kept there
    (graphs are never modified once built: searches work on copies).  The deadline (``limits``'
    or the one in force) is in force while it runs: the hooks that take none
    (``fully_specify``, the closures) read it there.
    """
    # first: a missing deadline is an error whatever the problems
    deadline = required("an equivalence check", limits.deadline)
    with deadline.applied() as in_force:
        budget = Limits(in_force, limits.max_isomorphism_steps).budget()
        return _decide(a, b, domain, budget, is_placeholder, anchored_objects,
                       placeholder_semantics, truth_memo)


def _decide(a: Problem, b: Problem, domain: Domain, budget: SearchBudget, is_placeholder: bool,
            anchored_objects: Iterable[str], placeholder_semantics: PlaceholderSemantics | str,
            truth_memo: dict | None) -> Verdict:
    """:func:`compare`'s decision, with its deadline in force and ``budget`` bounding the
    isomorphism searches."""
    memo = {} if truth_memo is None else truth_memo
    placeholder_semantics = PlaceholderSemantics(placeholder_semantics)
    anchors = frozenset(anchored_objects)
    if anchors:
        missing = _missing_anchor(a, b, anchors)
        if missing:
            return Verdict(False, missing)
    anchors |= domain_constants(domain.definition, a, b)
    if _identical(a, b):
        return Verdict(True, "the same problem up to renaming objects")
    budget.check()  # an earlier stage may have used up the time
    # Easy cases first (Algorithm 1, lines 4-6): cheap invariants, then the initial scenes.
    if sorted(a.object_types) != sorted(b.object_types):
        return Verdict(False, f"objects differ: the ground truth has {len(a.objects)} "
                              f"({', '.join(sorted(set(a.object_types)))}), the prediction "
                              f"{len(b.objects)} ({', '.join(sorted(set(b.object_types)))})")
    differ = _count_difference("initial states differ", _predicate_counts(a.init),
                               _predicate_counts(b.init))
    if differ:
        return Verdict(False, differ)
    # One renaming that maps init and goal as written settles every mode at once; most correct
    # answers end here, so the initial scenes are compared on their own only after that fails.
    plain = a.has_plain_goal and b.has_plain_goal
    if plain:
        if _predicate_counts(a.goal) == _predicate_counts(b.goal) and isomorphic(
                _kept(memo, ("as written", anchors),
                      lambda: _graph(a, anchors, (INIT, a.init), (GOAL, a.goal))),
                _graph(b, anchors, (INIT, b.init), (GOAL, b.goal)), budget):
            return Verdict(True, "the same problem up to renaming objects")
    elif a.goal_formula is None and b.goal_formula is None and isomorphic(
            _with_goal(a, anchors, a.goal, a.negative_goal),
            _with_goal(b, anchors, b.goal, b.negative_goal), budget):
        return Verdict(True, "the same problem up to renaming objects")
    init_a = _kept(memo, ("init", anchors), lambda: _graph(a, anchors, (INIT, a.init)))
    init_b = _graph(b, anchors, (INIT, b.init))
    if not isomorphic(init_a, init_b, budget):
        return Verdict(False, "initial states differ: same facts per predicate, but no renaming "
                              "of objects maps one onto the other")
    if not plain and (a.goal_formula is not None or b.goal_formula is not None):
        from .strict import compare_formula_goals

        return Verdict(*compare_formula_goals(a, b, domain, init_a, init_b, anchors, budget,
                                              is_placeholder, placeholder_semantics))

    if plain:
        goal_a = _kept(memo, "fully_specify", lambda: domain.fully_specify(a))
        budget.check()
        goal_b = _of_prediction(a, b, domain, (init_a, init_b), anchors, domain.fully_specify,
                                renamed_goal)
        budget.check()
        neg_a = neg_b = frozenset[Atom]()
    else:
        closure_a = _kept(memo, "literal_closure", lambda: literal_closure(domain, a))
        budget.check()
        closure_b = _of_prediction(a, b, domain, (init_a, init_b), anchors,
                                   lambda p: literal_closure(domain, p), renamed_closure)
        budget.check()
        goal_a, neg_a = _parts(closure_a)
        goal_b, neg_b = _parts(closure_b)
        if closure_a and closure_b and closure_a.positive_only and closure_b.positive_only:
            neg_a = neg_b = frozenset()  # negative literals that add nothing change no verdict
    if goal_a is None or goal_b is None:
        if goal_a is None and goal_b is None:
            return Verdict(True, "neither goal is reachable and the initial states match")
        side = "prediction's" if goal_b is None else "ground truth's"
        return Verdict(False, f"the {side} goal is unreachable from its initial state")
    strict = is_placeholder and placeholder_semantics == REACHABLE_GOAL_STATES
    differ = _count_difference("goals differ once fully specified", _predicate_counts(goal_a),
                               _predicate_counts(goal_b))
    if not differ and not strict:  # a strict renaming need not map F- onto F- (equivalence.strict)
        differ = _count_difference("facts false in every goal state differ",
                                   _predicate_counts(neg_a), _predicate_counts(neg_b))
    if differ:
        return Verdict(False, differ)
    if is_placeholder and placeholder_semantics == PAPER:
        scene_a = _kept(memo, ("goal scene", plain, anchors, neg_a),
                        lambda: _graph(a, anchors, (GOAL, goal_a), (GOAL_FALSE, neg_a)))
        scene_b = _graph(b, anchors, (GOAL, goal_b), (GOAL_FALSE, neg_b))
        if isomorphic(scene_a, scene_b, budget):
            return Verdict(True, "equivalent up to renaming the goal's objects (placeholder mode)")
        return Verdict(False, "fully specified goals describe different arrangements")
    if isomorphic(_kept(memo, ("fully specified", plain, anchors, neg_a),
                        lambda: _with_goal(a, anchors, goal_a, neg_a)),
                  _with_goal(b, anchors, goal_b, neg_b), budget):
        return Verdict(True, "equivalent once goals are fully specified")
    if not is_placeholder:
        return Verdict(False, "fully specified goals differ under every renaming that matches "
                              "the initial states (identity mode)")
    from .strict import strict_placeholder

    return Verdict(*strict_placeholder(a, b, domain, (goal_a, neg_a), (goal_b, neg_b), anchors,
                                       budget))


def _of_prediction(a: Problem, b: Problem, domain: Domain,
                   inits: tuple[rx.PyDiGraph, rx.PyDiGraph], anchors: frozenset[str],
                   ask: Callable[[Problem], T], back: Callable[[T, dict[str, str]], T]) -> T:
    """``ask(b)``; where no closed form covers ``b``, asked of ``b`` in the ground truth's
    names so that the generic engine grounds the initial state once (:mod:`.shared_task`;
    ``inits``: the two initial states' graphs, built with ``anchors``)."""
    if domain.closed_form_covers(b):
        return ask(b)
    return asked_in_truth_names(a, b, *inits, ask, back, anchors)


def _kept(memo: dict, key: Hashable, compute: Callable[[], T]) -> T:
    """``memo[key]``, computed on first use (a time limit that interrupts it stores nothing)."""
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def _identical(a: Problem, b: Problem) -> bool:
    """Whether the problems are the same as written (names included): the identity renaming
    then settles every mode, in linear time — VF2 takes quadratic time on tall towers."""
    return (a.init == b.init and a.goal == b.goal and a.negative_goal == b.negative_goal
            and a.goal_formula == b.goal_formula and a.type_of == b.type_of)


def _parts(closure: Closure | None) -> tuple[frozenset | None, frozenset]:
    return (None, frozenset()) if closure is None else (closure.positive, closure.negative)


def _with_goal(p: Problem, anchors: frozenset[str], positive: Iterable[Atom],
               negative: Collection[Atom]) -> rx.PyDiGraph:
    """The problem graph: the initial scene plus the goal's true and (if any) false facts."""
    return _graph(p, anchors, (INIT, p.init), (GOAL, positive), (GOAL_FALSE, negative))

