"""Decisions that need explicit sets of reachable goal states.

**Strict placeholder** (``placeholder_semantics="reachable-goal-states"``): the initial states
are isomorphic and some bijection ``g`` of objects (anchored names fixed) maps the set of
reachable goal states of one problem onto the other's: ``g(G_a) = G_b``.  The paper's
placeholder mode only asks that ``g`` map the *intersections* (fully specified goals), which a
goal on the wrong half of a disconnected rover map also passes.  Decided as follows, each step
exact:

1. an identity-mode renaming (initial states too) is such a ``g`` — the caller tried it first;
2. ``g(G_a) = G_b`` implies ``g(F+_a) = F+_b``, so non-isomorphic fully specified goals refute it;
3. when the domain gives both problems a *reachability signature*
   (:meth:`Domain.reachability_signature`: Blocks World from a well-formed state, Gripper with
   the robot in a room and a usable gripper), ``g(G_a) = G_b`` iff ``g`` maps signature onto
   signature (then ``g`` maps reachable states onto reachable states) and the closures (``F+``
   and ``F-``) onto each other — one graph isomorphism decides it;
4. any other domain (read from a file, no closed form): for a few bijections ``g`` that map
   the closures and the atoms reachable with deletes ignored onto each other (domain constants
   fixed, as in every mode), look for plans from ``b``'s initial
   state to ``g(init_a)`` and back.  Both found prove ``g(G_a) = G_b``: the actions commute
   with renaming, so ``g`` maps ``a``'s reachable states onto those reachable from
   ``g(init_a)``, which are ``b``'s when the two states reach each other; and a state is a goal
   state exactly when it is reachable and agrees with the closure.  This decides "equivalent"
   at IPC sizes in domains whose moves can be undone (Blocks World, Gripper, Logistics, ...);
5. ``g(G_a) = G_b`` also maps the facts true in *some* goal state onto each other: computed
   like ``F+`` (each fact by a witness goal state or a proof that none holds it), no renaming
   mapping them jointly with ``F+`` refutes (the rover on the wrong half of the map);
6. otherwise the goal-state sets are enumerated (bounded) and every bijection that maps
   ``F+_a`` onto ``F+_b`` and the atoms of some goal state onto those of some goal state is
   tried; running out of states or candidate bijections is a ``timeout``.

**Goal formulas** (``or`` / ``imply`` / ``exists`` / ``forall``): identity mode tries every
renaming that maps the initial states (graph isomorphisms, enumerated) against the explicit
goal-state sets; strict placeholder as in step 6; the paper's placeholder mode compares fully
specified goal *scenes*, which such goals do not have, so it is ``unsupported``.  Past the
state or renaming budget the goal is ``unsupported`` with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from math import prod

import rustworkx as rx

from ..domains.base import Domain
from ..errors import ResourceLimitError, UnsupportedFeatureError
from ..graph import (
    GOAL,
    GOAL_FALSE,
    GOAL_SOME,
    REACH,
    SearchBudget,
    isomorphic,
    problem_graph,
)
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..strips.forced import GoalStates, goal_states
from ..strips.grounding import StateBudgetExceeded
from .closure import explicit_goal_states
from .shared_task import rename

#: Candidate renamings tried against explicit goal-state sets before giving up.
MAX_RENAMINGS = 20_000
#: Renamings of the closures tried for a round trip of initial states (step 4), and the states
#: each of its two searches may expand: a witness found fast or not at all, the enumeration next.
MAX_ROUND_TRIP_RENAMINGS = 4
ROUND_TRIP_STATES = 2_000


#: A fully specified goal: the facts true and the facts false in every goal state.
Closure = tuple[frozenset[Atom], frozenset[Atom]]
Decision = tuple[bool, str]  # (equivalent, reason); equivalence.compare wraps it in a Verdict


def _renamings(first: rx.PyDiGraph, second: rx.PyDiGraph, n: int,
               objects_a: tuple[str, ...], objects_b: tuple[str, ...],
               budget: SearchBudget, on_excess: Callable[[str], None]) -> Iterator[dict[str, str]]:
    """Object bijections induced by the label-preserving isomorphisms of two graphs.

    The matchers look at the deadline (every 1,024 calls): finding the next isomorphism can take
    VF2 long on graphs of look-alike nodes, and a count of renamings alone would not stop it.
    """
    clock = SearchBudget(None, budget.deadline)
    for count, mapping in enumerate(rx.vf2_mapping(first, second, node_matcher=clock.match,
                                                   edge_matcher=clock.match, id_order=False)):
        if count >= MAX_RENAMINGS:
            on_excess(f"more than {MAX_RENAMINGS} candidate renamings")
        budget.check()
        yield {objects_a[i]: objects_b[mapping[i]] for i in range(n)}


#: Goal states renamed between two looks at the deadline.
_CLOCK_EVERY = 256


def _maps_onto(states: Iterable[frozenset[Atom]], mapping: dict[str, str], targets: frozenset,
               budget: SearchBudget) -> bool:
    """Whether renaming ``states`` by ``mapping`` gives exactly ``targets`` (as many states),
    state by state, stopping at the first renamed state that is not a target."""
    for count, state in enumerate(states, 1):
        if not count % _CLOCK_EVERY:
            budget.check()
        if rename(state, mapping) not in targets:
            return False
    return True


def _raise_timeout(why: str) -> None:
    raise ResourceLimitError(f"strict placeholder check: {why}")


def _raise_unsupported(why: str) -> None:
    raise UnsupportedFeatureError(f"goal formula decided only by exhaustive search: {why}")


def _same_goal_sets_under_some_renaming(a: Problem, b: Problem, goals_a: frozenset[frozenset[Atom]],
                                        goals_b: frozenset[frozenset[Atom]],
                                        anchors: frozenset[str], budget: SearchBudget,
                                        on_excess: Callable[[str], None]) -> bool:
    """Whether some bijection (anchors fixed) maps ``goals_a`` onto ``goals_b`` exactly."""
    if len(goals_a) != len(goals_b):
        return False
    if not goals_a:
        return True
    scenes_a = ((GOAL, frozenset.intersection(*goals_a)), (GOAL_SOME, frozenset.union(*goals_a)))
    scenes_b = ((GOAL, frozenset.intersection(*goals_b)), (GOAL_SOME, frozenset.union(*goals_b)))
    graph_a = problem_graph(a.objects, a.object_types, scenes_a, anchors)
    graph_b = problem_graph(b.objects, b.object_types, scenes_b, anchors)
    if graph_a.num_nodes() != graph_b.num_nodes() or not isomorphic(graph_a, graph_b, budget):
        return False
    return any(_maps_onto(goals_a, m, goals_b, budget)
               for m in _renamings(graph_a, graph_b, len(a.objects), a.objects, b.objects,
                                   budget, on_excess))


def strict_placeholder(a: Problem, b: Problem, domain: Domain, closure_a: Closure, closure_b: Closure,
                       anchors: frozenset[str], budget: SearchBudget) -> Decision:
    """Steps 2-6 of the module docstring (step 1 already failed; initial states isomorphic)."""
    (pos_a, neg_a), (pos_b, neg_b) = closure_a, closure_b
    scene_a = problem_graph(a.objects, a.object_types, ((GOAL, pos_a),), anchors)
    scene_b = problem_graph(b.objects, b.object_types, ((GOAL, pos_b),), anchors)
    if not isomorphic(scene_a, scene_b, budget):
        return (False, "fully specified goals describe different arrangements")
    sig_a, sig_b = domain.reachability_signature(a), domain.reachability_signature(b)
    if sig_a is not None and sig_b is not None:
        full_a = problem_graph(a.objects, a.object_types,
                               ((GOAL, pos_a), (GOAL_FALSE, neg_a), (REACH, sig_a)), anchors)
        full_b = problem_graph(b.objects, b.object_types,
                               ((GOAL, pos_b), (GOAL_FALSE, neg_b), (REACH, sig_b)), anchors)
        if isomorphic(full_a, full_b, budget):
            return (True, ("equivalent up to renaming the goal's objects (a renaming that "
                           "keeps the reachable states maps the goal states)"))
        return (False, ("no renaming that keeps the reachable states maps one set of goal "
                        "states onto the other"))
    states = goal_states(domain.definition, a), goal_states(domain.definition, b)
    if _round_trip_renaming(a, b, domain, states, closure_a, closure_b, anchors, budget):
        return (True, ("equivalent up to renaming the goal's objects (the renamed initial state "
                       "and the prediction's reach each other, so the renaming maps the goal "
                       "states)"))
    if not _possible_facts_match(a, b, states, pos_a, pos_b, anchors, budget):
        return (False, ("no renaming maps one set of reachable goal states onto the other: "
                        "the facts true in some goal state differ (the fully specified goals "
                        "match)"))
    goals_a = explicit_goal_states(domain, a)
    goals_b = explicit_goal_states(domain, b)
    if _same_goal_sets_under_some_renaming(a, b, goals_a, goals_b, anchors, budget, _raise_timeout):
        return (True, "some renaming maps one set of reachable goal states onto the other")
    return (False, ("no renaming maps one set of reachable goal states onto the other "
                           "(the fully specified goals match, the reachable goal states do not)"))


def _round_trip_renaming(a: Problem, b: Problem, domain: Domain,
                         states: tuple[GoalStates, GoalStates], closure_a: Closure,
                         closure_b: Closure, anchors: frozenset[str], budget: SearchBudget) -> bool:
    """Step 4 of the module docstring: whether some renaming ``g`` of the closures was shown to
    map ``a``'s goal states onto ``b``'s by plans between ``g(init_a)`` and ``init_b``.

    ``False`` proves nothing.  Candidates also map the atoms reachable with deletes ignored onto
    each other, which two states reaching each other must (relaxed reachability commutes with
    renaming): a truck stays in its city, a bijection that moves it to another is never tried.
    The domain's constants are among ``anchors`` (:func:`~planetarium.equivalence.compare`
    adds them): renaming them would not commute with the actions.
    """
    first, second = (problem_graph(p.objects, p.object_types,
                                   ((GOAL, positive), (GOAL_FALSE, negative),
                                    (REACH, _informative(reached.atoms))), anchors)
                     for p, (positive, negative), reached in zip((a, b), (closure_a, closure_b),
                                                                  states, strict=True))
    if first.num_nodes() != second.num_nodes() or not isomorphic(first, second, budget):
        return False
    renamings = _renamings(first, second, len(a.objects), a.objects, b.objects, budget,
                           _raise_timeout)
    return any(states[1].round_trip(rename(a.init, mapping), ROUND_TRIP_STATES)
               for mapping in islice(renamings, MAX_ROUND_TRIP_RENAMINGS))


def _possible_facts_match(a: Problem, b: Problem, states: tuple[GoalStates, GoalStates],
                          pos_a: frozenset[Atom], pos_b: frozenset[Atom], anchors: frozenset[str],
                          budget: SearchBudget) -> bool:
    """Step 5 of the module docstring: whether some renaming maps ``F+_a`` onto ``F+_b`` and
    the facts true in some goal state of ``a`` onto ``b``'s, which ``g(G_a) = G_b`` implies
    (``g`` maps the union of the goal states as it maps their intersection)."""
    first, second = (problem_graph(p.objects, p.object_types,
                                   ((GOAL, positive), (GOAL_SOME, _some_goal_state_facts(p, reached))),
                                   anchors)
                     for p, positive, reached in zip((a, b), (pos_a, pos_b), states, strict=True))
    return isomorphic(first, second, budget)


def _some_goal_state_facts(problem: Problem, states: GoalStates) -> frozenset[Atom]:
    possible = states.possible(states.mask(problem.goal), states.mask(problem.negative_goal))
    if possible is None:  # the caller has both closures: each goal has a reachable state
        raise AssertionError("a goal with a closure has no reachable goal state")
    return states.unmask(possible)


def _informative(atoms: Iterable[Atom]) -> frozenset[Atom]:
    """``atoms`` with each relation that is the product of its columns (Gripper's relaxed
    ``at``: any ball in any room) replaced by its columns, as unary facts ``predicate@i``
    (``@`` never occurs in a PDDL name).  A bijection maps one product onto another exactly when
    it maps column onto column, so the isomorphisms stay the same; as edges, a product would
    only lead VF2 through permutations of look-alikes."""
    by_predicate: dict[str, set[Atom]] = {}
    for atom in atoms:
        by_predicate.setdefault(atom[0], set()).add(atom)
    out: set[Atom] = set()
    for predicate, relation in by_predicate.items():
        arity = len(next(iter(relation))) - 1
        columns = [{atom[i] for atom in relation} for i in range(1, arity + 1)]
        if arity < 2 or len(relation) != prod(len(column) for column in columns):
            out |= relation
            continue
        out.update((f"{predicate}@{i}", name) for i, column in enumerate(columns, 1)
                   for name in column)
    return frozenset(out)


def compare_formula_goals(a: Problem, b: Problem, domain: Domain, init_a: rx.PyDiGraph,
                          init_b: rx.PyDiGraph, anchors: frozenset[str], budget: SearchBudget,
                          is_placeholder: bool, semantics: str) -> Decision:
    """Goals with ``or`` / ``imply`` / ``exists`` / ``forall`` (initial states isomorphic)."""
    if is_placeholder and semantics == "paper":
        raise UnsupportedFeatureError(
            "placeholder mode (paper semantics) compares fully specified goal scenes, which a "
            "goal with 'or'/'imply'/'exists'/'forall' does not have; use identity mode or "
            "placeholder_semantics='reachable-goal-states'")
    try:
        goals_a = explicit_goal_states(domain, a)
        goals_b = explicit_goal_states(domain, b)
    except StateBudgetExceeded as err:
        _raise_unsupported(str(err))
    if len(goals_a) != len(goals_b):
        return (False, (f"the ground truth has {len(goals_a)} reachable goal state(s), "
                               f"the prediction {len(goals_b)}"))
    if is_placeholder:
        if _same_goal_sets_under_some_renaming(a, b, goals_a, goals_b, anchors, budget,
                                               _raise_unsupported):
            return (True, ("some renaming maps one set of reachable goal states onto "
                                  "the other"))
        return (False, "no renaming maps one set of reachable goal states onto the other")
    for mapping in _renamings(init_a, init_b, len(a.objects), a.objects, b.objects, budget,
                              _raise_unsupported):
        if _maps_onto(goals_a, mapping, goals_b, budget):
            return (True, ("a renaming that maps the initial states maps the reachable "
                                  "goal states too"))
    return (False, ("no renaming that maps the initial states maps the reachable goal "
                           "states onto each other"))
