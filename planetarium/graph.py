"""Scene graphs and problem graphs (Section 3.3 of the Planetarium paper), and their isomorphism.

Every object becomes a node labelled with its type; every fact becomes a node labelled with its
predicate and its scene (``init`` or ``goal``), with one edge per argument, labelled with the
argument's position.  Labels are interned to small integers so rustworkx can compare them with the
C-level ``==`` instead of a Python-level dictionary comparison.

Object *names* never appear in a label — except for *anchored* objects, whose label is
``("anchor", type, name)`` so that an isomorphism must map each to the object of the same name —
and labels are tuples whose first element says what they are, so an object called ``table``,
``clear`` or ``room`` cannot collide with anything internal.

:func:`isomorphic` runs VF2 in rustworkx with matchers that count steps and look at the deadline;
colour refinement, ours, runs on the graphs' facts in columns, a round being a few C-level
``map``/``zip``/``accumulate`` passes (:class:`_Facts`).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable
from itertools import accumulate, chain
from operator import itemgetter, sub
from typing import NamedTuple

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
_labels: list[tuple] = []  # by number
_new_label = threading.Lock()


def label_id(label: tuple) -> int:
    """A process-wide small integer for a node label."""
    found = _label_ids.get(label)
    if found is None:
        with _new_label:  # two threads must never give two labels one number
            found = _label_ids.get(label)
            if found is None:
                found = _label_ids[label] = len(_labels)
                _labels.append(label)
    return found


def build_graph(objects: tuple[str, ...], object_types: tuple[str, ...],
                scenes: Iterable[tuple[str, Iterable[Atom]]],
                anchors: frozenset[str] = frozenset()) -> rx.PyDiGraph:
    """A scene graph (one scene) or problem graph (init and goal scenes) over ``objects``;
    objects named in ``anchors`` are labelled with their names.  Object nodes come first, in
    ``objects`` order."""
    graph = rx.PyDiGraph(check_cycle=False, multigraph=True)
    if anchors:
        graph.add_nodes_from([label_id(("anchor", t, o) if o in anchors else ("object", t))
                              for o, t in zip(objects, object_types, strict=True)])
    else:
        by_type = {t: label_id(("object", t)) for t in set(object_types)}
        graph.add_nodes_from(list(map(by_type.__getitem__, object_types)))
    index = dict(zip(objects, range(len(objects)), strict=True))
    for scene, atoms in scenes:
        _add_facts(graph, index, scene, atoms)
    return graph


#: Facts added between two looks at the grading deadline.
_CLOCK_FACTS = 4096


def _add_facts(graph: rx.PyDiGraph, index: dict[str, int], scene: str, atoms: Iterable[Atom]) -> None:
    """Fact nodes in sorted order: atoms arrive as sets, whose order follows the per-process
    string hash seed, and node order steers VF2's search, so sorting makes the time (and the
    verdict near a limit) the same in every process."""
    ordered = sorted(atoms)
    names = {p: label_id(("fact", p, scene)) for p in set(map(itemgetter(0), ordered))}
    get = index.__getitem__
    for low in range(0, len(ordered), _CLOCK_FACTS):
        check_deadline("building the problem graphs")
        chunk = ordered[low:low + _CLOCK_FACTS]
        nodes = graph.add_nodes_from(list(map(names.__getitem__, map(itemgetter(0), chunk))))
        graph.add_edges_from([(node, arg, pos) for node, atom in zip(nodes, chunk, strict=True)
                              for pos, arg in enumerate(map(get, atom[1:]))])


def problem_graph(objects: tuple[str, ...], object_types: tuple[str, ...],
                  scenes: Iterable[tuple[str, Iterable[Atom]]],
                  anchors: frozenset[str] = frozenset()) -> rx.PyDiGraph:
    """The graph of :func:`build_graph` with the facts of one and two arguments folded in, for
    deciding isomorphism: an object's label also names its one-argument facts (predicate and
    scene, sorted), a two-argument fact is an edge between its objects, labelled with every
    (predicate, scene) that joins them, and only facts of other arities stay nodes (object
    nodes first, then those in the order of their atoms).

    A renaming of objects maps every fact onto a fact in one graph exactly when it does in the
    other, so the two graphs of two problems are isomorphic together or not at all; this one
    has about a third of the nodes and VF2 takes about a third of the time.
    """
    index = dict(zip(objects, range(len(objects)), strict=True))
    unary: dict[int, list[tuple[str, str]]] = {}
    binary: dict[tuple[int, int], list[tuple[str, str]]] = {}
    others: list[tuple[str, Atom]] = []
    for scene, atoms in scenes:
        for count, atom in enumerate(atoms):
            if not count % _CLOCK_FACTS:
                check_deadline("building the problem graphs")
            if len(atom) == 3:
                binary.setdefault((index[atom[1]], index[atom[2]]), []).append((atom[0], scene))
            elif len(atom) == 2:
                unary.setdefault(index[atom[1]], []).append((atom[0], scene))
            else:
                others.append((scene, atom))
    labels = []
    for i, (name, type_name) in enumerate(zip(objects, object_types, strict=True)):
        kind = ("anchor", type_name, name) if name in anchors else ("object", type_name)
        facts = unary.get(i)
        labels.append(label_id(kind if facts is None else (*kind, tuple(sorted(facts)))))
    graph = rx.PyDiGraph(check_cycle=False, multigraph=True)
    graph.add_nodes_from(labels)
    graph.add_edges_from([(x, y, label_id(("facts", tuple(sorted(facts)))))
                          for (x, y), facts in sorted(binary.items())])
    for scene, atom in sorted(others):
        node = graph.add_node(label_id(("fact", atom[0], scene)))
        graph.add_edges_from([(node, index[arg], pos) for pos, arg in enumerate(atom[1:])])
    return graph


class StepLimitReached(ResourceLimitError):
    """The step budget (not the clock) ran out; a caller may retry with a better strategy."""


class SearchBudget:
    """Bounds the isomorphism search by matcher calls and the item's deadline.

    rustworkx's own ``call_limit`` makes ``is_isomorphic`` return ``False`` when it runs out —
    indistinguishable from a real "no" — and it counts only the states VF2 enters, not the
    candidates it refutes in between.  Counting calls in our matchers instead lets us raise
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

#: Steps granted to each VF2 attempt on refined colours, at least (and at least RAW_STEPS per
#: node and edge: a graph of many interchangeable parts, like 40 towers of 25 blocks, needs
#: about one step each once refined, but more than a fixed 3,000 in all).
QUICK_STEPS = 3_000


def _vf2(first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget) -> bool:
    return rx.is_isomorphic(first, second, node_matcher=budget.match,
                            edge_matcher=budget.match, id_order=False)


def _vf2_within(first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget,
                steps: int) -> bool:
    """VF2 within ``steps`` of ``budget`` (else :class:`StepLimitReached`)."""
    quick = budget.sub_budget(steps)
    try:
        return _vf2(first, second, quick)
    finally:
        budget.calls += quick.calls


# -- colour refinement ----------------------------------------------------------------------

class _Group(NamedTuple):
    """The facts of one arity: their labels and, per argument position, their arguments'
    object positions (a column per position)."""

    arity: int
    labels: list[int]
    columns: list[list[int]]


class _Colours(NamedTuple):
    """A colouring of a graph's objects, their sorted list (the histogram two isomorphic graphs
    share) and how many distinct colours there are."""

    objects: list[int]
    histogram: list[int]
    classes: int


def _colours(objects: list[int]) -> _Colours:
    histogram = sorted(objects)
    return _Colours(objects, histogram, len(set(histogram)))


class _Facts:
    """A graph's objects and facts in columns, read off its rustworkx graph (object nodes come
    first; an edge goes from a fact to an argument, or in a graph of :func:`problem_graph`
    joins two objects: a fact of two arguments), for colour refinement: a round is a few
    C-level ``map``/``zip``/``accumulate`` passes over the columns."""

    def __init__(self, graph: rx.PyDiGraph) -> None:
        weights = graph.nodes()
        first = sum(1 for w in weights if _labels[w][0] != "fact")
        self.graph, self.labels = graph, weights[:first]
        rows = [[w] for w in weights[first:]]
        self.nodes = len(rows)  # facts that are nodes; then the edges between objects
        edges = graph.weighted_edge_list()
        for fact, arg, _ in sorted(edges, key=itemgetter(2)):
            if fact >= first:  # argument positions in order (a stable sort)
                rows[fact - first].append(arg)
        rows += [[label, x, y] for x, y, label in edges if x < first]  # (:func:`problem_graph`)
        self.rows = rows
        by_arity: dict[int, list[list[int]]] = {}
        for row in rows:
            by_arity.setdefault(len(row) - 1, []).append(row)
        # by arity: a round sums per (arity, position) in this order, the same for every graph
        self.groups = [_Group(k, [r[0] for r in found], [[r[p] for r in found]
                                                         for p in range(1, k + 1)])
                       for k, found in sorted(by_arity.items()) if k]
        self.facts = frozenset(map(tuple, rows))
        self.nullary = [(row[0],) for row in rows if len(row) == 1]
        self.incidence = [self._incidence(column) for g in self.groups for column in g.columns]

    def _incidence(self, column: list[int]) -> tuple[list[int], list[int], list[int]]:
        """The facts ordered by the object in ``column``, and each object's first and
        last-plus-one place in that order: a round sums each object's facts' colours with one
        ``accumulate`` and two look-ups per object."""
        counts = [0] * len(self.labels)
        for arg in column:
            counts[arg] += 1
        ends = list(accumulate(counts))
        return sorted(range(len(column)), key=column.__getitem__), list(map(sub, ends, counts)), ends

    def round(self, colours: list[int]) -> list[int]:
        """One round of colour refinement (1-dimensional Weisfeiler-Leman) on the objects.

        A fact's colour hashes its label and its arguments' colours in order; an object's new
        colour hashes its colour and, per (arity, position), the sum of the colours of the
        facts that have it there.  A sum of hashes stands for the multiset of colours: the
        result depends only on the structure, so an isomorphism maps each object to one of the
        same colour.  A collision can only give two different neighbourhoods one colour — a
        coarser colouring, never a wrong verdict: colours only ever prove "not isomorphic"
        (histograms differ) or choose which renamings to check, and each is checked fact by
        fact (:func:`_forced`) or by VF2 on labels and colours.
        """
        get = colours.__getitem__
        sums = []
        incidence = iter(self.incidence)
        for group in self.groups:
            facts = list(map(hash, zip(group.labels, *[map(get, c) for c in group.columns],
                                       strict=True)))
            for _ in group.columns:
                order, starts, ends = next(incidence)
                prefix = [0, *accumulate(map(facts.__getitem__, order))]
                sums.append(map(sub, map(prefix.__getitem__, ends), map(prefix.__getitem__, starts)))
        return list(map(hash, zip(colours, *sums, strict=True)))

    def recoloured(self, colours: list[int], palette: dict[tuple, int]) -> rx.PyDiGraph:
        """The graph with each node weighted by its (label, colour) pair's number in
        ``palette`` (shared by the two graphs compared), a fact's colour hashing its label and
        its arguments' colours.  The label in the pair keeps a hash collision from ever letting
        VF2 match different labels."""
        get = colours.__getitem__
        number = palette.setdefault
        copy = self.graph.copy()
        weights = [number(key, len(palette)) for key in zip(self.labels, colours, strict=True)]
        weights += [number((row[0], hash((row[0], *map(get, row[1:])))), len(palette))
                    for row in self.rows[:self.nodes]]
        for node, weight in enumerate(weights):
            copy[node] = weight
        return copy


def _numbered(colours: list[int]) -> list[int]:
    """Each colour made the object's own by its rank among the objects of that colour: the
    k-th look-alike of one graph then pairs with the k-th of the other."""
    seen: dict[int, int] = {}
    numbered = []
    for colour in colours:
        rank = seen[colour] = seen.get(colour, 0) + 1
        numbered.append(hash((colour, rank)))
    return numbered


def _forced(first: _Facts, second: _Facts, a: list[int], b: list[int]) -> bool:
    """Whether the renaming that maps each object to the object of the other graph with its
    colour is an isomorphism (every object onto one with its label, every fact onto a fact;
    the graphs having as many).  ``a`` and ``b`` give every object a colour of its own; when
    that fails (a hash collision) there is no renaming to check."""
    where = dict(zip(b, range(len(b)), strict=True))
    theirs = set(a)
    if not len(theirs) == len(a) == len(where) or theirs != where.keys():
        return False
    mapping = list(map(where.__getitem__, a))
    if list(map(second.labels.__getitem__, mapping)) != first.labels:
        return False
    to = mapping.__getitem__
    renamed = chain.from_iterable(zip(group.labels, *[map(to, c) for c in group.columns],
                                      strict=True) for group in first.groups)
    return frozenset(chain(first.nullary, renamed)) == second.facts


#: Makes an individualised object's colour differ from the colours refinement gives.
_INDIVIDUAL = 0x5EED


def _refine(first: _Facts, second: _Facts, a: list[int], b: list[int], budget: SearchBudget,
            rounds: int | None = None) -> tuple[_Colours, _Colours, bool] | None:
    """Refine two colourings side by side for at most ``rounds`` rounds (``None``: until
    stable); ``None`` as soon as their histograms differ (which proves the graphs different),
    else the colourings and whether they are stable."""
    x, y = _colours(a), _colours(b)
    done = 0
    while rounds is None or done < rounds:
        if x.histogram != y.histogram:
            return None
        budget.check()
        nx, ny = _colours(first.round(x.objects)), _colours(second.round(y.objects))
        done += 1
        if nx.classes == x.classes:
            return (nx, ny, True) if nx.histogram == ny.histogram else None
        x, y = nx, ny
    return (x, y, False) if x.histogram == y.histogram else None


class _Search:
    """The isomorphisms of two graphs whose refined colours leave look-alike objects."""

    def __init__(self, first: _Facts, second: _Facts, budget: SearchBudget) -> None:
        self.first, self.second, self.budget = first, second, budget
        size = first.graph.num_nodes() + first.graph.num_edges()
        self.quick_steps = max(QUICK_STEPS, RAW_STEPS * size)

    def vf2(self, a: list[int], b: list[int]) -> bool:
        """VF2 on labels and colours within the quick steps (else StepLimitReached)."""
        palette: dict[tuple, int] = {}
        g1, g2 = self.first.recoloured(a, palette), self.second.recoloured(b, palette)
        return _vf2_within(g1, g2, self.budget, self.quick_steps)

    def search(self, a: list[int], b: list[int], depth: int = 0) -> bool:
        """Whether an isomorphism keeps the stable colourings ``a``, ``b`` (equal histograms).

        Once every object has a colour of its own, the one renaming left is checked.
        Otherwise look-alikes are first paired in the order they come (right whenever they are
        interchangeable, as balls in one room are), then, at the top, VF2 gets a few steps.
        Colour refinement cannot tell apart look-alike rooms whose balls differ only further
        away; VF2 may then commit to a wrong room and try every permutation of balls.  Giving
        one object of the smallest ambiguous class a fresh colour, and trying each candidate
        partner in turn (individualisation-refinement, as in canonical-labelling tools), keeps
        the search exact while the branching stays tiny on planning graphs.
        """
        sizes = Counter(a)
        if len(sizes) == len(a):
            return _forced(self.first, self.second, a, b)
        if _forced(self.first, self.second, _numbered(a), _numbered(b)):
            return True
        if not depth:
            try:
                return self.vf2(a, b)
            except StepLimitReached:
                pass
        # the smallest class; between equals, the one whose first object comes first
        v = min(range(len(a)), key=lambda i: (sizes[a[i]] == 1, sizes[a[i]], i))
        fresh = hash((a[v], _INDIVIDUAL))
        for w in range(len(b)):
            if b[w] != a[v]:
                continue
            self.budget.calls += len(a)  # a branch costs steps too: the step budget bounds it
            self.budget.check()
            trial_a, trial_b = list(a), list(b)
            trial_a[v] = trial_b[w] = fresh
            refined = _refine(self.first, self.second, trial_a, trial_b, self.budget)
            if refined is not None and self.search(refined[0].objects, refined[1].objects,
                                                   depth + 1):
                return True
        return False


#: Refinement rounds tried before refining to stability: cheap, and enough to expose most local
#: differences, after which VF2 gets another few steps.  Measured on generated pairs: with 2
#: rounds VF2 still explores permutations of look-alike balls on 16-32-ball gripper pairs for
#: hundreds of ms; with 3 it takes ~1 ms.
EARLY_ROUNDS = 3

#: Graphs larger than this skip VF2 on raw or barely refined labels.  VF2 calls our matchers only
#: for pairs that pass its structural checks, and on huge graphs it can backtrack through a long
#: chain of pairs that fail them: on a renamed 20,000-block tower (80,001 nodes) one call ran 56 s
#: without calling a matcher, out of reach of the deadline (at 40,001 nodes the longest gap was
#: 0.2 s).  Refinement is ours and looks at the budget as it goes.
MAX_PLAIN_VF2_NODES = 40_000


def isomorphic(first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget) -> bool:
    """Label- and position-preserving isomorphism, or :class:`ResourceLimitError`.

    Plain VF2 decides rigid graphs (towers of blocks) within a few hundred steps, so it gets a
    small step budget first; then a few refinement rounds (which prove most other pairs
    different) and VF2 again on the refined colours; then refinement to stability, the one
    renaming left if every object has a colour of its own, and otherwise VF2 and
    individualisation (:meth:`_Search.search`).
    """
    if first.num_nodes() != second.num_nodes() or first.num_edges() != second.num_edges():
        return False
    if Counter(first.nodes()) != Counter(second.nodes()):
        return False
    plain = first.num_nodes() <= MAX_PLAIN_VF2_NODES
    # Beyond a few steps per node and edge the raw labels are leading VF2 through permutations
    # of look-alikes, so refine instead.
    if plain:
        try:
            return _vf2_within(first, second, budget,
                               RAW_STEPS * (first.num_nodes() + first.num_edges()))
        except StepLimitReached:
            pass
    a, b = _Facts(first), _Facts(second)
    search = _Search(a, b, budget)
    early = _refine(a, b, a.labels, b.labels, budget, EARLY_ROUNDS)
    if early is None:
        return False
    x, y, stable = early
    if plain and not stable and x.classes < len(x.objects):
        try:
            return search.vf2(x.objects, y.objects)
        except StepLimitReached:
            pass
    if not stable:
        refined = _refine(a, b, x.objects, y.objects, budget)
        if refined is None:
            return False
        x, y, _ = refined
    return search.search(x.objects, y.objects)


#: The original package's ``planetarium.graph`` names, which live elsewhere here (this module is
#: the isomorphism machinery, not the original's graph classes).
ORIGINAL_NAMES = {"ProblemGraph": "planetarium.builder", "SceneGraph": "planetarium.builder",
                  "Label": None}


def __getattr__(name: str) -> object:
    """``from planetarium.graph import ProblemGraph`` (the original package's import) fails with
    one line saying where the name is (an ``ImportError``, which Python passes on as it is)."""
    if name in ORIGINAL_NAMES:
        home = ORIGINAL_NAMES[name]
        instead = (f"use `from {home} import {name}`" if home else
                   "it has no counterpart here (graph labels are internal)")
        raise ImportError(f"planetarium.graph.{name} is the original package's; this "
                          f"planetarium.graph is the isomorphism module: {instead}")
    raise AttributeError(f"module 'planetarium.graph' has no attribute {name!r}")
