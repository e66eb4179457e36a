"""The prediction asked in the ground truth's names, so that one ground task serves both.

The generic engine grounds a problem's objects and initial state once per process
(:func:`planetarium.strips.forced.goal_states`), but a prediction that names its objects
otherwise (any renamed answer) has a different ground task and would be grounded again: on
ACPBench's swap, 0.1-0.3 s of a pair's 0.3-0.8 s (by machine load).  Once
:func:`~planetarium.equivalence.compare` knows the initial states isomorphic, one renaming of
the prediction's objects onto the ground truth's that maps initial state onto initial state is
looked for (VF2 within :data:`RENAMING_STEPS`); the prediction's fully specified goal (or
closure) is computed for its renamed copy and renamed back.  Both are the same set: which atoms
hold in every reachable goal state does not depend on what the objects are called.  Without
such a renaming within the budget, the prediction is asked as written.

Where the prediction's goal has more facts than the truth's (implied facts written out), a
renaming that also maps the truth's goal into the prediction's is looked for first (VF2
subgraph matching within :data:`GOAL_RENAMING_STEPS`): the engine then knows the prediction's
answer from the truth's (:meth:`~planetarium.strips.forced.GoalStates.forced` keeps answers and
reads off those of goals that add only forced facts), where an arbitrary renaming of a symmetric
initial state (swap's agents) would send it searching again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import replace
from operator import eq
from typing import TypeVar

import rustworkx as rx

from ..pddl.domain import Atom
from ..pddl.problem import Problem
from .closure import Closure

T = TypeVar("T")

#: VF2 states explored looking for the renaming; the isomorphism is already known, so one is
#: usually found in about one step per node.
RENAMING_STEPS = 50_000
#: VF2 states explored looking for a renaming that maps the truth's goal into the prediction's
#: too (an optimisation only: without one, any renaming of the initial states serves).
GOAL_RENAMING_STEPS = 5_000


def onto_truth(a: Problem, b: Problem, init_a: rx.PyDiGraph, init_b: rx.PyDiGraph,
               anchors: frozenset[str] = frozenset()) -> dict[str, str] | None:
    """A renaming of ``b``'s objects onto ``a``'s (types and ``anchors`` kept) under which
    ``b``'s initial state is ``a``'s, from the problem graphs of the two initial states (object
    nodes first, in objects order; ``anchors`` marked as they were built); ``None`` when VF2
    finds none within :data:`RENAMING_STEPS`.  Where ``b``'s goal is the larger, one that maps
    ``a``'s goal into ``b``'s is preferred (module docstring)."""
    if len(a.objects) != len(b.objects):
        return None
    nodes = None
    if len(b.goal) > len(a.goal):
        nodes = _first(rx.vf2_mapping(
            _goal_graph(b, False, anchors), _goal_graph(a, True, anchors), node_matcher=_fits,
            edge_matcher=_fits, subgraph=True, induced=False, id_order=False,
            call_limit=GOAL_RENAMING_STEPS))
    if nodes is None:
        nodes = _first(rx.vf2_mapping(init_b, init_a, node_matcher=eq, edge_matcher=eq,
                                      id_order=False, call_limit=RENAMING_STEPS))
    if nodes is None:
        return None
    count = len(b.objects)
    renaming = {b.objects[i]: a.objects[j] for i, j in nodes.items() if i < count}
    types_a, types_b = a.type_of, b.type_of
    if (len(renaming) != count or any(types_a.get(renaming[o]) != t for o, t in types_b.items())
            or rename(b.init, renaming) != a.init):
        return None  # not a renaming of objects onto objects (never expected): ask as written
    return renaming


def _first(mappings: Iterable[Mapping[int, int]]) -> Mapping[int, int] | None:
    return next(iter(mappings), None)


#: A node or edge of :func:`_goal_graph`: whose graph it is (``True``: the truth's), what must
#: match exactly (an object's type, its name if anchored, its one-argument initial facts; an
#: edge's two-argument initial facts; a fact node's predicate and scene), and the goal facts.
_Part = tuple[bool, Hashable, frozenset, frozenset]


def _fits(x: _Part, y: _Part) -> bool:
    """Whether the truth's part may be mapped onto the prediction's: the same exact part, its
    goal facts among theirs (rustworkx passes nodes and edges in opposite orders: each part
    says whose it is)."""
    truth, pred = (x, y) if x[0] else (y, x)
    return truth[1] == pred[1] and truth[2] == pred[2] and truth[3] <= pred[3]


def _goal_graph(p: Problem, truth: bool, anchors: frozenset[str]) -> rx.PyDiGraph:
    """The initial state and the positive goal as a graph whose parts keep the goal's facts
    apart (:data:`_Part`), for matching one problem's into the other's: objects first, in
    objects order; a two-argument fact is on the edge between its objects; other facts are
    nodes with an edge to each argument, numbered by position."""
    index = {o: i for i, o in enumerate(p.objects)}
    unary: dict[int, tuple[set, set]] = {}
    binary: dict[tuple[int, int], tuple[set, set]] = {}
    others = []
    for in_goal, atoms in ((False, p.init), (True, p.goal)):
        for atom in atoms:
            if len(atom) == 2:
                unary.setdefault(index[atom[1]], (set(), set()))[in_goal].add(atom[0])
            elif len(atom) == 3:
                binary.setdefault((index[atom[1]], index[atom[2]]),
                                  (set(), set()))[in_goal].add(atom[0])
            else:
                others.append((in_goal, atom))
    graph = rx.PyDiGraph(check_cycle=False, multigraph=False)
    for i, (name, type_name) in enumerate(zip(p.objects, p.object_types, strict=True)):
        init, goal = unary.get(i, (set(), set()))
        graph.add_node((truth, (type_name, name if name in anchors else None),
                        frozenset(init), frozenset(goal)))
    for (x, y), (init, goal) in binary.items():
        graph.add_edge(x, y, (truth, "facts", frozenset(init), frozenset(goal)))
    for in_goal, atom in others:
        node = graph.add_node((truth, ("fact", atom[0], in_goal), frozenset(), frozenset()))
        for position, arg in enumerate(atom[1:]):
            if graph.has_edge(node, index[arg]):  # an object twice: one edge, both positions
                _, _, kept, _ = graph.get_edge_data(node, index[arg])
                graph.update_edge(node, index[arg], (truth, "positions",
                                                     kept | {position}, frozenset()))
            else:
                graph.add_edge(node, index[arg], (truth, "positions", frozenset({position}),
                                                  frozenset()))
    return graph


def rename(atoms: frozenset[Atom], renaming: dict[str, str]) -> frozenset[Atom]:
    """``atoms`` with every argument renamed."""
    return frozenset((atom[0], *(renaming[x] for x in atom[1:])) for atom in atoms)


def renamed_goal(goal: frozenset[Atom] | None,
                 renaming: dict[str, str]) -> frozenset[Atom] | None:
    """A fully specified goal (``None``: unreachable) renamed."""
    return None if goal is None else rename(goal, renaming)


def renamed_closure(closure: Closure | None, renaming: dict[str, str]) -> Closure | None:
    """A closure (``None``: unreachable) renamed."""
    return None if closure is None else replace(
        closure, positive=rename(closure.positive, renaming),
        negative=rename(closure.negative, renaming))


def asked_in_truth_names(a: Problem, b: Problem, init_a: rx.PyDiGraph, init_b: rx.PyDiGraph,
                         ask: Callable[[Problem], T],
                         back: Callable[[T, dict[str, str]], T],
                         anchors: frozenset[str] = frozenset()) -> T:
    """``ask(b)``, computed as ``back(ask(b renamed onto a's names), inverse renaming)`` where
    :func:`onto_truth` finds a renaming (module docstring); ``back`` renames an answer."""
    renaming = onto_truth(a, b, init_a, init_b, anchors)
    if renaming is None:
        return ask(b)
    renamed = replace(b, objects=tuple(renaming[o] for o in b.objects), init=a.init,
                      goal=rename(b.goal, renaming),
                      negative_goal=rename(b.negative_goal, renaming))
    inverse = {new: old for old, new in renaming.items()}
    return back(ask(renamed), inverse)
