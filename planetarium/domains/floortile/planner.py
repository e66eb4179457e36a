"""Exact polynomial planner for the simplified Floor-tile, for every initial state.

The domain has no ``clear`` predicate: robots never block each other, ``painted`` is never
deleted (painting is monotone and a tile may hold several colours), and the four moves and four
paints all use one *adjacency* — ``up`` or ``right`` in either direction — so the floor is an
undirected graph and a robot can paint exactly the neighbours of the tiles it can stand on.
Robots are independent, so every question splits per robot:

* **Positions.** ``robot-at`` atoms are tokens that move along edges; a move onto a tile the
  robot already occupies merges two tokens, so their number per connected component never
  grows, and any placement with at most that many tokens per component is reachable (unlabelled
  tokens: shift tokens along a path — the nearest spare token moves, those in between step on).
* **Colours.** ``change-color`` swaps one held colour for an *available* one, so the number of
  held colours never grows.  A goal colour that is not available must be held from the start and
  never given up (it could not come back), so it *reserves* its slot.  A robot can paint colour
  ``c`` iff it holds ``c`` initially (paint it first) or ``c`` is available and it has a slot that
  is not reserved; it can end holding the goal colours iff the reserved ones are held initially
  and there are no more goal colours than held ones.
* **Paint.** ``(painted y c)`` is reachable iff some robot that can paint ``c`` has a token in the
  component of a tile adjacent to ``y``.

These conditions are checked goal atom by goal atom, so unsolvability is proven exactly; the
plan paints with initial colours first, then with each other colour, then sets the goal colours
and finally places the tokens.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from ...limits import Deadline, check_deadline
from ...pddl.problem import Problem
from ..base import Domain, Plan

#: Tiles a path search expands between two looks at the clock.
_CLOCK_EVERY = 256

_STATIC = ("up", "right", "available-color")


class _Floor:
    """The tile graph: neighbours, components and the action that goes from one tile to another."""

    def __init__(self, init: frozenset) -> None:
        self.init = init
        self.adjacent: dict[str, set[str]] = {}
        for atom in init:
            if atom[0] in ("up", "right"):
                self.adjacent.setdefault(atom[1], set()).add(atom[2])
                self.adjacent.setdefault(atom[2], set()).add(atom[1])
        # neighbours in a fixed order, sorted once: path searches expand tiles many times
        self.ordered = {tile: sorted(near) for tile, near in self.adjacent.items()}
        self.component: dict[str, str] = {}  # tile -> a representative of its component
        for start in self.adjacent:
            if start not in self.component:
                for tile in self.reach(start):
                    self.component[tile] = start

    def reach(self, start: str) -> list[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in self.adjacent.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return list(seen)

    def comp(self, tile: str) -> str:
        return self.component.get(tile, tile)

    def move(self, robot: str, src: str, dst: str) -> tuple[str, ...]:
        for name, (rel, a, b) in (("up", ("up", dst, src)), ("down", ("up", src, dst)),
                                  ("right", ("right", dst, src)), ("left", ("right", src, dst))):
            if (rel, a, b) in self.init:
                return (name, robot, src, dst)
        raise AssertionError(f"{src} and {dst} are not adjacent")

    def paint(self, robot: str, tile: str, stand: str, color: str) -> tuple[str, ...]:
        for name, (rel, a, b) in (("paint-up", ("up", tile, stand)), ("paint-down", ("up", stand, tile)),
                                  ("paint-right", ("right", tile, stand)),
                                  ("paint-left", ("right", stand, tile))):
            if (rel, a, b) in self.init:
                return (name, robot, tile, stand, color)
        raise AssertionError(f"{stand} and {tile} are not adjacent")

    def path(self, sources: set[str], stop: Callable[[str], bool]) -> list[str]:
        """Shortest path to a tile in ``sources`` from the nearest tile where ``stop`` holds.

        The path starts at that tile: searching from the destinations finds the nearest token.
        Painting a large floor runs one search per tile, so each looks at the grading deadline.
        """
        parent: dict[str, str | None] = {s: None for s in sources}
        queue = deque(sorted(sources))
        expanded = 0
        while queue:
            expanded += 1
            if not expanded % _CLOCK_EVERY:
                check_deadline("the floor-tile planner")
            tile = queue.popleft()
            if stop(tile):
                path, step = [tile], parent[tile]
                while step is not None:
                    path.append(step)
                    step = parent[step]
                return path
            for nxt in self.ordered.get(tile, ()):
                if nxt not in parent:
                    parent[nxt] = tile
                    queue.append(nxt)
        # the callers ask only for paths that the reachability checks of solve() proved exist
        raise AssertionError(f"no tile where the robot may stand reaches {sorted(sources)}")


class _Robot:
    """One robot's tokens and colours, and the actions that change them."""

    def __init__(self, name: str, init: frozenset, goal: frozenset, available: set[str]) -> None:
        self.name = name
        self.tiles = {a[2] for a in init if a[0] == "robot-at" and a[1] == name}
        self.colors = {a[2] for a in init if a[0] == "robot-has" and a[1] == name}
        self.wanted_colors = {a[2] for a in goal if a[0] == "robot-has" and a[1] == name}
        self.wanted_tiles = {a[2] for a in goal if a[0] == "robot-at" and a[1] == name}
        self.reserved = self.wanted_colors - available
        self.paintable = set(self.colors)
        if len(self.colors) > len(self.reserved):
            self.paintable |= available

    def goals_reachable(self, floor: _Floor) -> bool:
        if not self.reserved <= self.colors or len(self.wanted_colors) > len(self.colors):
            return False
        tokens: dict[str, int] = {}
        for tile in self.tiles:
            tokens[floor.comp(tile)] = tokens.get(floor.comp(tile), 0) + 1
        for tile in self.wanted_tiles:
            tokens[floor.comp(tile)] = tokens.get(floor.comp(tile), 0) - 1
        return all(n >= 0 for n in tokens.values())

    def can_paint(self, floor: _Floor, tile: str, color: str) -> bool:
        comps = {floor.comp(t) for t in self.tiles}
        return color in self.paintable and bool(floor.adjacent.get(tile)) and floor.comp(tile) in comps

    def walk(self, floor: _Floor, path: list[str], plan: Plan) -> None:
        """Move "a token" from ``path[0]`` to the free ``path[-1]``: tokens on the way step on."""
        stops = [i for i, tile in enumerate(path[:-1]) if tile in self.tiles]
        end = len(path) - 1
        for start in reversed(stops):
            for i in range(start, end):
                plan.append(floor.move(self.name, path[i], path[i + 1]))
            self.tiles.discard(path[start])
            self.tiles.add(path[end])
            end = start

    def paint(self, floor: _Floor, jobs: list[tuple[str, str]], plan: Plan) -> None:
        initial = [j for j in jobs if j[1] in self.colors]
        later = sorted((j for j in jobs if j[1] not in self.colors), key=lambda j: (j[1], j[0]))
        for tile, color in sorted(initial, key=lambda j: (j[1], j[0])) + later:
            self.hold(color, keep=self.reserved, plan=plan)
            stands = floor.adjacent[tile]
            here = stands & self.tiles
            if not here:
                path = floor.path(set(stands), lambda t: t in self.tiles)
                self.walk(floor, path, plan)
                here = {path[-1]}
            plan.append(floor.paint(self.name, tile, min(here), color))

    def hold(self, color: str, keep: set[str], plan: Plan) -> None:
        if color in self.colors:
            return
        give = min(self.colors - keep)
        plan.append(("change-color", self.name, give, color))
        self.colors.discard(give)
        self.colors.add(color)

    def finish(self, floor: _Floor, plan: Plan) -> None:
        for color in sorted(self.wanted_colors - self.colors):
            self.hold(color, keep=self.wanted_colors, plan=plan)
        for tile in sorted(self.wanted_tiles - self.tiles):
            path = floor.path({tile}, lambda t: t in self.tiles and t not in self.wanted_tiles)
            self.walk(floor, path, plan)


def solve(domain: Domain, problem: Problem, deadline: Deadline | None) -> Plan | None:
    """A plan, or ``None`` when the goal is unreachable (exact for every initial state)."""
    init, goal = problem.init, problem.goal
    if any(a[0] in _STATIC and a not in init for a in goal):
        return None
    floor = _Floor(init)
    available = {a[1] for a in init if a[0] == "available-color"}
    names = sorted({a[1] for a in init | goal if a[0] in ("robot-at", "robot-has")})
    robots = {name: _Robot(name, init, goal, available) for name in names}
    if not all(robot.goals_reachable(floor) for robot in robots.values()):
        return None
    jobs: dict[str, list[tuple[str, str]]] = {name: [] for name in names}
    for atom in sorted(goal - init):
        if atom[0] != "painted":
            continue
        able = [r for r in robots.values() if r.can_paint(floor, atom[1], atom[2])]
        if not able:
            return None
        holder = next((r for r in able if atom[2] in r.colors), able[0])
        jobs[holder.name].append((atom[1], atom[2]))
    plan: Plan = []
    for name in names:
        robots[name].paint(floor, jobs[name], plan)
        robots[name].finish(floor, plan)
    return plan
