"""Scene graphs and problem graphs (Section 3.3 of the Planetarium paper).

Every object becomes a node labelled with its type; every fact becomes a node labelled with its
predicate and its scene (``init`` or ``goal``), with one edge per argument, labelled with the
argument's position.  Labels are interned to small integers so rustworkx can compare them with the
C-level ``==`` instead of a Python-level dictionary comparison.

Object *names* never appear in a label, so an object called ``table``, ``clear`` or ``room``
cannot collide with anything internal.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Iterable

import rustworkx as rx

from .errors import ResourceLimitError
from .pddl.domain import Atom

INIT = "init"
GOAL = "goal"

_label_ids: dict[tuple, int] = {}


def label_id(label: tuple) -> int:
    """A process-wide small integer for a node label."""
    found = _label_ids.get(label)
    if found is None:
        found = _label_ids[label] = len(_label_ids)
    return found


def build_graph(objects: tuple[str, ...], object_types: tuple[str, ...],
                scenes: Iterable[tuple[str, Iterable[Atom]]]) -> rx.PyDiGraph:
    """A scene graph (one scene) or problem graph (init and goal scenes) over ``objects``."""
    graph = rx.PyDiGraph(check_cycle=False, multigraph=True)
    graph.add_nodes_from([label_id(("object", t)) for t in object_types])
    index = {o: i for i, o in enumerate(objects)}
    edges = []
    for scene, atoms in scenes:
        for atom in atoms:
            node = graph.add_node(label_id(("fact", atom[0], scene)))
            for pos, arg in enumerate(atom[1:]):
                edges.append((node, index[arg], pos))
    graph.add_edges_from(edges)
    return graph


class SearchBudget:
    """Bounds the isomorphism search by matcher calls and wall-clock time.

    rustworkx's own ``call_limit`` makes ``is_isomorphic`` return ``False`` when it runs out —
    indistinguishable from a real "no".  Counting calls in our matchers instead lets us raise
    :class:`ResourceLimitError`, so a resource limit can never pass as "not equivalent".
    """

    def __init__(self, max_calls: int | None = 5_000_000, deadline: float | None = None) -> None:
        self.max_calls = max_calls
        self.deadline = deadline
        self.calls = 0

    def check(self) -> None:
        """Raise :class:`ResourceLimitError` if the step or time budget is spent."""
        if self.max_calls is not None and self.calls > self.max_calls:
            raise ResourceLimitError(f"isomorphism search exceeded {self.max_calls} steps")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ResourceLimitError("isomorphism search ran past the time limit")

    def match(self, a: int, b: int) -> bool:
        self.calls += 1
        if not self.calls & 0x3FF:
            self.check()
        return a == b


def _label_counts(graph: rx.PyDiGraph) -> Counter:
    return Counter(graph.nodes())


def isomorphic(first: rx.PyDiGraph, second: rx.PyDiGraph, budget: SearchBudget) -> bool:
    """Label- and position-preserving isomorphism, or :class:`ResourceLimitError`."""
    if first.num_nodes() != second.num_nodes() or first.num_edges() != second.num_edges():
        return False
    if _label_counts(first) != _label_counts(second):
        return False
    return rx.is_isomorphic(first, second, node_matcher=budget.match,
                            edge_matcher=budget.match, id_order=False)
