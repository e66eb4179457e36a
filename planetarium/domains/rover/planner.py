"""Exact planner for Rover-single on the strongly connected components of the waypoint graph.

Everything but the rover's position is monotone: samples are not consumed, analyses and images
are never lost, ``communicated_*`` atoms are never deleted, and the communicate actions delete and
re-add ``available``/``channel_free``, so those stay as they were.  The rover moves along the
directed edges ``can_traverse ∧ visible`` (none without ``available``).

Inside a strongly connected component the rover can visit every waypoint in any order, so a
walk is decided by the sequence of components it passes — a path in the condensation DAG —
and visiting a component greedily gathers every needed analysis and image it offers, then
communicates every held datum if it holds a waypoint that sees the lander.  A breadth-first
search over (component, progress) pairs is therefore exact; with a strongly connected map (the
dataset's) it is one step.  Choosing one waypoint from each "any of these sees the objective"
set along a DAG path is NP-hard in general, so on adversarial one-way maps the search is bounded
by the time limit and raises ResourceLimitError rather than guess.

The rover in no waypoint can do nothing; the rover in several waypoints (several tokens that
merge when they meet) goes to the generic complete search.
"""

from __future__ import annotations

from collections import deque
from itertools import pairwise

from ...errors import ResourceLimitError
from ...limits import Deadline, check_deadline
from ...pddl.problem import Problem
from ..base import Domain, Plan

_DYNAMIC = ("at_rover", "have_soil_analysis", "have_rock_analysis", "have_image",
            "communicated_soil_data", "communicated_rock_data", "communicated_image_data")
#: datum kind -> (have predicate, communicated predicate, communicate action)
_KINDS = {
    "soil": ("have_soil_analysis", "communicated_soil_data", "communicate_soil_data"),
    "rock": ("have_rock_analysis", "communicated_rock_data", "communicate_rock_data"),
    "image": ("have_image", "communicated_image_data", "communicate_image_data"),
}


#: Waypoints a route search reaches between two looks at the grading deadline.
_CLOCK_NODES = 1024


class _Map:
    """Waypoints, edges, components and where each thing can be done."""

    def __init__(self, init: frozenset) -> None:
        self.init = init
        moving = ("available",) in init
        self.edges: dict[str, list[str]] = {}
        for atom in sorted(init):
            if (atom[0] == "can_traverse" and moving and atom[1] != atom[2]
                    and ("visible", atom[1], atom[2]) in init):
                self.edges.setdefault(atom[1], []).append(atom[2])
        talking = moving and ("channel_free",) in init
        landers = {a[1] for a in init if a[0] == "at_lander"}
        self.relay = {a[1]: a[2] for a in sorted(init, reverse=True)
                      if talking and a[0] == "visible" and a[2] in landers}
        self.cameras: dict[str, str] = {}
        self.views: dict[str, set[str]] = {}  # objective -> waypoints it is visible from
        for atom in sorted(init, reverse=True):
            if atom[0] == "supports":
                self.cameras[atom[2]] = atom[1]
            elif atom[0] == "visible_from":
                self.views.setdefault(atom[1], set()).add(atom[2])

    def sites(self, kind: str, datum: tuple[str, ...]) -> set[str]:
        """Waypoints where ``datum`` (a waypoint, or objective and mode) can be obtained."""
        if kind == "image":
            if datum[1] not in self.cameras:
                return set()
            return self.views.get(datum[0], set())
        return {datum[0]} if (f"at_{kind}_sample", datum[0]) in self.init else set()

    def components(self, start: str) -> tuple[dict[str, int], dict[int, set[int]]]:
        """Tarjan's SCCs of what ``start`` reaches, and the condensation's edges."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        comp: dict[str, int] = {}
        stack: list[str] = []
        labels = 0  # components found so far
        work = [(start, iter(self.edges.get(start, ())))]
        index[start] = low[start] = 0
        stack.append(start)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    work.append((nxt, iter(self.edges.get(nxt, ()))))
                    break
                if nxt not in comp:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    label = labels
                    labels += 1
                    while True:
                        member = stack.pop()
                        comp[member] = label
                        if member == node:
                            break
        succ: dict[int, set[int]] = {c: set() for c in comp.values()}
        for node in comp:
            for nxt in self.edges.get(node, ()):
                if comp[nxt] != comp[node]:
                    succ[comp[node]].add(comp[nxt])
        return comp, succ

    def route(self, src: str, targets: set[str]) -> list[str]:
        """Shortest walk from ``src`` to a waypoint in ``targets`` (which it reaches)."""
        parent: dict[str, str | None] = {src: None}
        queue = deque([src])
        while queue:
            if not len(parent) % _CLOCK_NODES:
                check_deadline("the rover planner")
            node = queue.popleft()
            if node in targets:
                path, step = [node], parent[node]
                while step is not None:
                    path.append(step)
                    step = parent[step]
                return path[::-1]
            for nxt in self.edges.get(node, ()):
                if nxt not in parent:
                    parent[nxt] = node
                    queue.append(nxt)
        raise AssertionError(f"{sorted(targets)} is not reachable from {src}")


def solve(domain: Domain, problem: Problem, deadline: Deadline | None) -> Plan | None:
    """A plan, ``None`` if none exists, or ResourceLimitError on an adversarial one-way map."""
    init, goal = problem.init, problem.goal
    if any(a[0] not in _DYNAMIC and a not in init for a in goal):
        return None
    rover = sorted(a[1] for a in init if a[0] == "at_rover")
    if not rover:
        return [] if goal <= init else None
    if len(rover) > 1:
        from ...strips.generic import generic_solve

        return generic_solve(domain.definition, problem, deadline)
    ends = {a[1] for a in goal if a[0] == "at_rover"}
    if len(ends) > 1:
        return None
    world = _Map(init)
    # each needed datum: (kind, datum, needs communicating); have-only goals need no relay
    needs: dict[tuple[str, tuple[str, ...]], bool] = {}
    for kind, (have_predicate, told_predicate, _) in _KINDS.items():
        for atom in goal - init:
            if atom[0] == told_predicate:
                needs[(kind, atom[1:])] = True
            elif atom[0] == have_predicate:
                needs.setdefault((kind, atom[1:]), False)
    items = sorted(needs)
    have0 = frozenset(i for i, (k, d) in enumerate(items) if (_KINDS[k][0],) + d in init)
    comp, succ = world.components(rover[0])
    members: dict[int, set[str]] = {}
    for waypoint, label in comp.items():
        members.setdefault(label, set()).add(waypoint)
    gains: dict[int, set[int]] = {c: set() for c in members}  # items each component offers
    for i, (k, d) in enumerate(items):
        for site in world.sites(k, d):
            if site in comp:
                gains[comp[site]].add(i)
    offers = {c: frozenset(found) for c, found in gains.items()}
    relays = {comp[w] for w in world.relay if w in comp}
    told_needed = frozenset(i for i, it in enumerate(items) if needs[it])
    end_comp = comp.get(next(iter(ends)), -1) if ends else None

    def visit(c: int, have: frozenset, told: frozenset) -> tuple[frozenset, frozenset]:
        have = have | offers[c]
        if c in relays:
            told = told | (have & told_needed)
        return have, told

    first = (comp[rover[0]],) + visit(comp[rover[0]], have0, frozenset())
    parent: dict[tuple, tuple | None] = {first: None}
    queue = deque([first])
    while queue:
        if deadline is not None and deadline.expired():
            raise ResourceLimitError(
                f"rover search over map components ran out of {deadline.seconds:g} s")
        node = queue.popleft()
        c, have, told = node
        if len(have) == len(items) and told_needed <= told and end_comp in (None, c):
            chain, previous = [node], parent[node]
            while previous is not None:
                chain.append(previous)
                previous = parent[previous]
            return _plan(world, items, needs, members, rover[0], chain[::-1], have0, ends)
        for nxt in sorted(succ[c]):
            state = (nxt,) + visit(nxt, have, told)
            if state not in parent:
                parent[state] = node
                queue.append(state)
    return None


def _plan(world: _Map, items: list[tuple[str, tuple[str, ...]]],
          needs: dict[tuple[str, tuple[str, ...]], bool], members: dict[int, set[str]], start: str,
          chain: list[tuple], have0: frozenset, ends: set[str]) -> Plan:
    """Walk the chosen components, gathering and relaying data greedily, then park."""
    plan: Plan = []
    here = start
    have = set(have0)
    told: set[int] = set()

    def go(targets: set[str]) -> str:
        path = world.route(here, targets)
        plan.extend(("navigate", a, b) for a, b in pairwise(path))
        return path[-1]

    relays = set(world.relay)
    for c, _, _ in chain:
        if here not in members[c]:
            here = go(members[c])
        for i, (kind, datum) in enumerate(items):
            if i in have:
                continue
            sites = world.sites(kind, datum) & members[c]
            if not sites:
                continue
            here = go(sites)
            if kind == "image":
                plan.append(("take_image", here, datum[0], world.cameras[datum[1]], datum[1]))
            else:
                plan.append((f"sample_{kind}", here))
            have.add(i)
        relay = relays & members[c]
        pending = [i for i in sorted(have) if needs[items[i]] and i not in told]
        if relay and pending:
            here = go(relay)
            for i in pending:
                kind, datum = items[i]
                plan.append((_KINDS[kind][2],) + datum + (here, world.relay[here]))
                told.add(i)
    if ends:
        here = go(ends)
    return plan
