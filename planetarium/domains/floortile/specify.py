"""fully_specify for the simplified floor-tile domain: exact, and linear in the facts plus
goal tiles times robots.

Why the rules below are exact.  A state is the static grid plus, per robot, the set of tiles
it stands on and the set of colours it holds, plus the painted facts.  No action reads
``painted`` and robots never block each other (there is no ``clear``), so robots interact only
through *who paints which goal tile*.  Every rule works on sets, never on "the" position or
colour of a robot, so inits that are not well-formed (a robot on two tiles or none, holding two
colours or none) are covered too; each set element behaves as a token that moves or changes on
its own and merges with an equal one.

Positions.  Moves follow the undirected graph of ``up``/``right`` edges.  Within a component
holding k >= 1 of a robot's tokens, any non-empty set of at most k tiles is reachable (merge
tokens, then unlabeled tokens can be placed anywhere in a connected graph), and painting never
forces a merge (send the token closest to the target and bring it back).  So a final position is
forced only by the goal or by a component that is a single tile.

Colours.  ``change-color`` swaps one held colour for an available one.  Final colour sets of a
robot with initial set H and available set A are H itself, and every S != H with S within
H | A, S meeting A, and |S - H| <= |H - S| (new colours need tokens that were given up).  A
robot that must at some moment hold a colour outside H (to paint a goal tile nobody else can)
additionally loses S = H when H and A are disjoint: its changed token ends on an available
colour that H lacks.  A robot is forced into that mode only if some unpainted goal tile can be
painted by no robot already holding its colour and by no other robot able to switch to it.

Painted facts are monotone and no action needs them, so exactly the initial and goal ones hold
in every goal state.
"""

from __future__ import annotations

from collections import defaultdict

from ...pddl.domain import Atom
from ...pddl.problem import Problem
from ..base import Domain


class _Components:
    """Connected components of the undirected tile graph (union-find over up/right facts)."""

    def __init__(self, init: frozenset[Atom]) -> None:
        self.parent: dict[str, str] = {}
        self.has_neighbour: set[str] = set()
        for atom in init:
            if atom[0] in ("up", "right"):
                self.has_neighbour.update(atom[1:])
                self._union(atom[1], atom[2])
        self.size: dict[str, int] = defaultdict(int)
        for tile in list(self.parent):
            self.size[self.find(tile)] += 1

    def find(self, x: str) -> str:
        root = x
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while x != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def _union(self, a: str, b: str) -> None:
        self.parent.setdefault(a, a)
        self.parent.setdefault(b, b)
        self.parent[self.find(a)] = self.find(b)

    def is_single_tile(self, root: str) -> bool:
        return self.size.get(root, 1) == 1


def _forced_colours(held: frozenset[str], available: frozenset[str], goal: frozenset[str],
                    must_change: bool) -> set[str] | None:
    """Colours a robot holds in every admissible final colour set, or None if there is none.

    ``goal``: colours the goal requires it to hold; ``must_change``: it must at some point hold
    a colour outside ``held``.  Admissible sets are the final sets of the module docstring that
    contain ``goal``.  The minimal non-initial sets are ``goal | {a}`` for an available ``a``,
    and the size condition only gets easier for subsets, so those witnesses suffice.
    """
    keep_initial = goal <= held and (not must_change or bool(held & available))
    witnesses: set[str] = set()
    if goal <= held | available:
        for a in available:
            s = goal | {a}
            if s != held and len(s - held) <= len(held - s):
                witnesses.add(a)
    if not keep_initial and not witnesses:
        return None
    forced = set(goal)
    for colour in (held | available) - goal:
        avoidable = (keep_initial and colour not in held) or bool(witnesses - {colour})
        if not avoidable:
            forced.add(colour)
    return forced


def fully_specify(domain: Domain, problem: Problem) -> frozenset[Atom] | None:
    """Every fact true in all goal states reachable from ``problem``'s init (None: none is)."""
    init, goal = problem.init, problem.goal
    static = domain.definition.static_predicates
    if any(a[0] in static and a not in init for a in goal):
        return None
    grid = _Components(init)
    available = frozenset(a[1] for a in init if a[0] == "available-color")

    positions: dict[str, list[str]] = defaultdict(list)
    held: dict[str, set[str]] = defaultdict(set)
    goal_positions: dict[str, list[str]] = defaultdict(list)
    goal_colours: dict[str, set[str]] = defaultdict(set)
    for pred, *args in init:
        if pred == "robot-at":
            positions[args[0]].append(args[1])
        elif pred == "robot-has":
            held[args[0]].add(args[1])
    for pred, *args in goal:
        if pred == "robot-at":
            goal_positions[args[0]].append(args[1])
        elif pred == "robot-has":
            goal_colours[args[0]].add(args[1])
    robots = set(positions) | set(held) | set(goal_positions) | set(goal_colours)

    facts = {a for a in init if a[0] in static or a[0] == "painted"} | set(goal)
    token_roots: dict[str, set[str]] = {}
    for robot in robots:
        tokens: dict[str, int] = defaultdict(int)
        for tile in positions[robot]:
            tokens[grid.find(tile)] += 1
        wanted: dict[str, int] = defaultdict(int)
        for tile in goal_positions[robot]:
            wanted[grid.find(tile)] += 1
        if any(n > tokens.get(root, 0) for root, n in wanted.items()):
            return None
        for tile in set(positions[robot]):
            root = grid.find(tile)
            if not wanted[root] and grid.is_single_tile(root):
                facts.add(("robot-at", robot, tile))
        token_roots[robot] = set(tokens)

    free_mode: dict[str, set[str]] = {}
    change_mode: dict[str, set[str] | None] = {}
    for robot in robots:
        h, g = frozenset(held[robot]), frozenset(goal_colours[robot])
        result = _forced_colours(h, available, g, must_change=False)
        if result is None:
            return None
        free_mode[robot] = result
        change_mode[robot] = _forced_colours(h, available, g, must_change=True)

    forced_to_change: set[str] = set()
    for atom in goal:
        if atom[0] != "painted" or atom in init:
            continue
        tile, colour = atom[1], atom[2]
        if tile not in grid.has_neighbour:
            return None
        root = grid.find(tile)
        reach = [r for r in robots if root in token_roots[r]]
        if any(colour in held[r] for r in reach):
            continue
        switchers = [r for r in reach if held[r] and colour in available
                     and change_mode[r] is not None]
        if not switchers:
            return None
        if len(switchers) == 1:
            forced_to_change.add(switchers[0])

    for robot in robots:
        colours = change_mode[robot] if robot in forced_to_change else free_mode[robot]
        assert colours is not None  # a robot forced to change is a switcher: it has a change mode
        facts.update(("robot-has", robot, c) for c in colours)
    return frozenset(facts)


def closed_form_covers(problem: Problem) -> bool:
    """The rules above cover every initial state (they work on sets of positions and colours)."""
    return True
