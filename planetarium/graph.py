"""Scene graphs and problem graphs (Section 3.3 of the Planetarium paper).

Every object becomes a node labelled with its type; every fact becomes a node labelled with its
predicate and its scene (``init`` or ``goal``), with one edge per argument, labelled with the
argument's position.  Labels are interned to small integers so rustworkx can compare them with the
C-level ``==`` instead of a Python-level dictionary comparison.

Object *names* never appear in a label — except for *anchored* objects, whose label is
``("anchor", type, name)`` so that an isomorphism must map each to the object of the same name —
and labels are tuples whose first element says what they are, so an object called ``table``,
``clear`` or ``room`` cannot collide with anything internal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cached_property

import rustworkx as rx

from .errors import ResourceLimitError
from .limits import Deadline, check_deadline
from .pddl.domain import Atom

INIT = "init"
GOAL = "goal"
#: Facts false in every reachable goal state (goals with negative literals).
GOAL_FALSE = "goal-false"
#: Facts true in some reachable goal state (the strict placeholder check's search).
GOAL_SOME = "goal-some"
#: A domain's reachability signature (the strict placeholder check's closed form).
REACH = "reach"

_label_ids: dict[tuple, int] = {}


def label_id(label: tuple) -> int:
    """A process-wide small integer for a node label."""
    found = _label_ids.get(label)
    if found is None:
        found = _label_ids[label] = len(_label_ids)
    return found


def build_graph(objects: tuple[str, ...], object_types: tuple[str, ...],
                scenes: Iterable[tuple[str, Iterable[Atom]]],
                anchors: frozenset[str] = frozenset()) -> rx.PyDiGraph:
    """A scene graph (one scene) or problem graph (init and goal scenes) over ``objects``;
    objects named in ``anchors`` are labelled with their names."""
    graph = rx.PyDiGraph(check_cycle=False, multigraph=True)
    if anchors:
        graph.add_nodes_from([label_id(("anchor", t, o) if o in anchors else ("object", t))
                              for o, t in zip(objects, object_types, strict=True)])
    else:
        graph.add_nodes_from([label_id(("object", t)) for t in object_types])
    index = {o: i for i, o in enumerate(objects)}
    for scene, atoms in scenes:
        _add_facts(graph, index, scene, atoms)
    return graph


def with_scene(graph: rx.PyDiGraph, objects: tuple[str, ...], scene: str,
               atoms: Iterable[Atom]) -> rx.PyDiGraph:
    """A copy of ``graph`` (built over ``objects``) with one more scene's facts: a problem graph
    from an initial-scene graph without building the initial scene again."""
    extended = graph.copy()
    _add_facts(extended, {o: i for i, o in enumerate(objects)}, scene, atoms)
    return extended


#: Facts added between two looks at the grading deadline.
_CLOCK_FACTS = 4096


def _add_facts(graph: rx.PyDiGraph, index: dict[str, int], scene: str, atoms: Iterable[Atom]) -> None:
    """Fact nodes in sorted order: atoms arrive as sets, whose order follows the per-process
    string hash seed, and node order steers VF2's search, so sorting makes the time (and the
    verdict near a limit) the same in every process."""
    edges = []
    for count, atom in enumerate(sorted(atoms)):
        if not count % _CLOCK_FACTS:
            check_deadline("building the problem graphs")
        node = graph.add_node(label_id(("fact", atom[0], scene)))
        for pos, arg in enumerate(atom[1:]):
            edges.append((node, index[arg], pos))
    graph.add_edges_from(edges)


class StepLimitReached(ResourceLimitError):
    """The step budget (not the clock) ran out; a caller may retry with a better strategy."""


class SearchBudget:
    """Bounds the isomorphism search by matcher calls and the item's deadline.

    rustworkx's own ``call_limit`` makes ``is_isomorphic`` return ``False`` when it runs out —
    indistinguishable from a real "no".  Counting calls in our matchers instead lets us raise
    :class:`ResourceLimitError`, so a resource limit can never pass as "not equivalent".
    """

    def __init__(self, max_calls: int | None = 5_000_000,
                 deadline: Deadline | None = None) -> None:
        self.max_calls = max_calls
        self.deadline = deadline
        self.calls = 0

    def check(self) -> None:
        """Raise :class:`ResourceLimitError` if the step or time budget is spent."""
        if self.max_calls is not None and self.calls > self.max_calls:
            raise StepLimitReached(f"isomorphism search exceeded {self.max_calls} steps")
        if self.deadline is not None and self.deadline.expired():
            raise ResourceLimitError("isomorphism search ran past the time limit")

    def match(self, a: int, b: int) -> bool:
        self.calls += 1
        if not self.calls & 0x3FF:
            self.check()
        return a == b

    def sub_budget(self, max_calls: int) -> SearchBudget:
        """A smaller step budget sharing this one's deadline."""
        remaining = None if self.max_calls is None else self.max_calls - self.calls
        cap = max_calls if remaining is None else min(max_calls, remaining)
        return SearchBudget(cap, self.deadline)


#: Steps per node and edge granted to plain VF2 before refining: rigid graphs (towers of blocks)
#: match in about one step each.  Measured (median per pair, min of 3 runs): 2 makes 64-block
#: pairs ~40% slower, 8 makes 16-32-ball Gripper pairs ~50% slower than 4.
RAW_STEPS = 4

#: Steps granted to each VF2 attempt on refined labels, at least (and at least RAW_STEPS per node
#: and edge: a graph of many interchangeable parts, like 40 towers of 25 blocks, needs about one
#: step each once refined, but more than a fixed 3,000 in all).
QUICK_STEPS = 3_000


def _vf2(first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget) -> bool:
    return rx.is_isomorphic(first, second, node_matcher=budget.match,
                            edge_matcher=budget.match, id_order=False)


#: Colours stay far below 2**32 (interned label ids, then palette indices bounded by the node
#: count), so an edge code shifted past them plus a colour is one int that sorts like the pair.
_CODE_SHIFT = 32


def _adjacency(graph: rx.PyDiGraph, offset: int) -> list[list[tuple[int, int]]]:
    """Per node: (shifted edge code, neighbour) pairs; the code says direction and argument
    position."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(graph.num_nodes())]
    for u, v, pos in graph.weighted_edge_list():
        adj[u].append(((2 * pos) << _CODE_SHIFT, v + offset))
        adj[v].append(((2 * pos + 1) << _CODE_SHIFT, u + offset))
    return adj


#: Nodes recoloured between two looks at the budget during one refinement round.
_REFINE_CHUNK = 8192


def refine(colours: list[int], adj: list[list[tuple[int, int]]], n1: int, budget: SearchBudget,
           max_rounds: int | None = None) -> tuple[list[int], bool] | None:
    """Colour refinement (1-dimensional Weisfeiler-Leman) on two graphs held side by side.

    ``colours`` and ``adj`` cover both graphs, the first ``n1`` nodes being the first graph's.
    Returns the colours after at most ``max_rounds`` rounds (``None``: until stable) and whether
    they are stable, or ``None`` as soon as the two graphs' colour histograms differ — which
    proves them non-isomorphic.  Colours are isomorphism invariant, so using them as labels
    keeps VF2 exact while sparing it permutations of look-alike nodes.
    """
    count = len(set(colours))
    rounds = 0
    while max_rounds is None or rounds < max_rounds:
        rounds += 1
        palette: dict[tuple, int] = {}
        new: list[int] = []
        for low in range(0, len(colours), _REFINE_CHUNK):  # a round of a huge graph takes seconds
            budget.check()
            new.extend([palette.setdefault(
                (colours[v], tuple(sorted([c + colours[u] for c, u in adj[v]]))), len(palette))
                for v in range(low, min(low + _REFINE_CHUNK, len(colours)))])
        if Counter(new[:n1]) != Counter(new[n1:]):
            return None
        stable = len(palette) == count
        colours, count = new, len(palette)
        if stable:
            return colours, True
    return colours, False


def _recoloured(graph: rx.PyDiGraph, colours: list[int]) -> rx.PyDiGraph:
    copy = graph.copy()
    for node, colour in enumerate(colours):
        copy[node] = colour
    return copy


#: Refinement rounds tried before refining to stability: cheap, and enough to expose most local
#: differences.  Measured on generated pairs: with 2 rounds VF2 still explores permutations of
#: look-alike balls on 16-32-ball gripper pairs for hundreds of ms; with 3 it takes ~1 ms.
EARLY_ROUNDS = 3


class _Pair:
    """Two graphs compared side by side: joint adjacency, and VF2 under given colours."""

    def __init__(self, first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget) -> None:
        self.first, self.second, self.budget = first, second, budget
        self.n1 = first.num_nodes()
        self.size_steps = RAW_STEPS * (first.num_nodes() + first.num_edges())
        self.quick_steps = max(QUICK_STEPS, self.size_steps)

    @cached_property
    def adj(self) -> list[list[tuple[int, int]]]:
        """Joint adjacency for refinement; most pairs are settled by VF2 before it is needed."""
        return _adjacency(self.first, 0) + _adjacency(self.second, self.n1)

    def vf2(self, colours: list[int] | None, max_calls: int | None) -> bool:
        """VF2 under ``colours``; with ``max_calls``, raises StepLimitReached past them."""
        if colours is None:
            g1, g2 = self.first, self.second
        else:
            g1 = _recoloured(self.first, colours[:self.n1])
            g2 = _recoloured(self.second, colours[self.n1:])
        if max_calls is None:
            return _vf2(g1, g2, self.budget)
        quick = self.budget.sub_budget(max_calls)
        try:
            return _vf2(g1, g2, quick)
        finally:
            self.budget.calls += quick.calls

    def search(self, colours: list[int]) -> bool:
        """Refine to stability; if VF2 still struggles, individualise one node and branch.

        Colour refinement cannot tell apart look-alike rooms whose balls differ only further
        away; VF2 may then commit to a wrong room and try every permutation of balls.  Giving
        one node of the smallest ambiguous class a fresh colour, and trying each candidate
        partner in turn (individualisation-refinement, as in canonical-labelling tools), keeps
        the search exact while the branching stays tiny on planning graphs.
        """
        refined = refine(colours, self.adj, self.n1, self.budget)
        if refined is None:
            return False
        colours = refined[0]
        try:
            return self.vf2(colours, self.quick_steps)
        except StepLimitReached:
            pass
        sizes = Counter(colours[:self.n1])
        ambiguous = [c for c, k in sizes.items() if k > 1]
        if not ambiguous:
            return self.vf2(colours, None)
        target = min(ambiguous, key=lambda c: (sizes[c], c))
        v = colours.index(target)
        fresh = max(colours) + 1
        for w in range(self.n1, len(colours)):
            if colours[w] != target:
                continue
            self.budget.check()
            trial = list(colours)
            trial[v] = trial[w] = fresh
            if self.search(trial):
                return True
        return False


#: Graphs larger than this skip VF2 on raw or barely refined labels.  VF2 calls our matchers only
#: for pairs that pass its structural checks, and on huge graphs it can backtrack through a long
#: chain of pairs that fail them: on a renamed 20,000-block tower (80,001 nodes) one call ran 56 s
#: without calling a matcher, out of reach of the deadline (at 40,001 nodes the longest gap was
#: 0.2 s).  Refinement is ours and looks at the budget as it goes.
MAX_PLAIN_VF2_NODES = 40_000


def isomorphic(first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget) -> bool:
    """Label- and position-preserving isomorphism, or :class:`ResourceLimitError`.

    Plain VF2 decides rigid graphs (towers of blocks) within a few hundred steps, so it gets a
    small step budget first; then a few refinement rounds; then refinement to stability with
    individualisation (:meth:`_Pair.search`) for graphs full of look-alike nodes.
    """
    if first.num_nodes() != second.num_nodes() or first.num_edges() != second.num_edges():
        return False
    if Counter(first.nodes()) != Counter(second.nodes()):
        return False
    pair = _Pair(first, second, budget)
    plain = first.num_nodes() <= MAX_PLAIN_VF2_NODES
    # Beyond a few steps per node and edge the raw labels are leading VF2 through permutations
    # of look-alikes, so refine instead.
    if plain:
        try:
            return pair.vf2(None, pair.size_steps)
        except StepLimitReached:
            pass
    colours = list(first.nodes()) + list(second.nodes())
    early = refine(colours, pair.adj, pair.n1, budget, EARLY_ROUNDS)
    if early is None:
        return False
    if plain and not early[1]:
        try:
            return pair.vf2(early[0], pair.quick_steps)
        except StepLimitReached:
            pass
    return pair.search(early[0])
