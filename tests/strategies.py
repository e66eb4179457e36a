"""Hypothesis strategies for small problems of the four built-in domains, and the fully_specify
check the specify tests share.

Every strategy returns :class:`~planetarium.pddl.problem.Problem` objects small enough for the
brute force (blocksworld <= 5 blocks; gripper <= 3 rooms, 4 balls, 2 grippers; floor-tile grids
up to 2x3; rover maps up to 5 waypoints).  The strategies draw structures (towers, placements,
grids, roads) so hypothesis can shrink them; the facts are built by the shared fact builders of
:mod:`planetarium.testing.generators`.  Blocks World and Gripper object names come from pools
that include names of predicates and kinds (``table``, ``on``, ``room``, ``free``...) so nothing
may confuse a name with a keyword.

Blocks World and Gripper initial states are well-formed (states the dataset could write) or
*mutated* (up to two atoms removed and two random atoms added: blocks resting nowhere, stuck
grippers, two robot positions, ...); goals are random subsets of a random well-formed state,
sometimes with random extra atoms that often make them unsatisfiable.  Floor-tile and Rover
strategies mix well-formed and malformed initial states themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planetarium.domains import Domain, get_domain
from planetarium.errors import ResourceLimitError
from planetarium.pddl.domain import Atom
from planetarium.pddl.problem import Problem
from planetarium.strips.exact import reachable_goal_intersection
from planetarium.testing.generators import (
    grid_facts,
    gripper_facts,
    problem_of,
    road_facts,
    tile_grid,
    tower_facts,
)

BLOCK_NAMES = ("b1", "b2", "b3", "b4", "b5", "table", "clear", "arm", "on", "holding")
ROOM_NAMES = ("rooma", "roomb", "room", "at", "free")
BALL_NAMES = ("ball1", "ball2", "ball3", "ball4", "ball", "carry")
GRIPPER_NAMES = ("left", "right", "gripper", "robby")


def _arity(domain: str) -> dict[str, int]:
    return {p: len(sig) for p, sig in get_domain(domain).definition.predicates.items()}


BW_ARITY = _arity("blocksworld")
GRIPPER_ARITY = _arity("gripper")


def _untyped(domain: str, objects: list[str], init: set[Atom], goal: set[Atom]) -> Problem:
    return problem_of(domain, dict.fromkeys(objects, "object"), init, goal)


def random_atoms(objects: list[str], arity: dict[str, int], min_size: int = 0,
                 max_size: int = 2) -> st.SearchStrategy[list[Atom]]:
    """A few atoms of any predicate over ``objects`` (possibly absurd, like ``(on b1 b1)``)."""
    preds = [p for p, n in arity.items() if n == 0 or objects]
    if not preds:
        return st.just([])
    atom = st.sampled_from(preds).flatmap(
        lambda pred: st.tuples(st.just(pred), *[st.sampled_from(objects)] * arity[pred]))
    return st.lists(atom, min_size=min_size, max_size=max_size)


@st.composite
def blocksworld_state(draw, blocks: list[str]) -> set[Atom]:
    """A random well-formed configuration: random towers, maybe one block in the hand."""
    order = draw(st.permutations(blocks))
    held = order[0] if order and draw(st.booleans()) else None
    towers: list[list[str]] = []
    for block in order[1 if held else 0:]:
        if towers and draw(st.booleans()):
            draw(st.sampled_from(towers)).append(block)
        else:
            towers.append([block])
    return tower_facts(towers, held)


@st.composite
def gripper_state(draw, rooms: list[str], balls: list[str], grippers: list[str]) -> set[Atom]:
    """Kinds and a random placement: robot in a room, each ball in a room or a gripper, free
    iff empty."""
    robby = [draw(st.sampled_from(rooms))] if rooms else []
    empty = list(grippers)
    places = {}
    for ball in balls:
        if empty and (not rooms or draw(st.booleans())):
            places[ball] = ("carry", empty.pop(draw(st.integers(0, len(empty) - 1))))
        elif rooms:
            places[ball] = ("at", draw(st.sampled_from(rooms)))
    return gripper_facts(rooms, balls, grippers, robby=robby, places=places, free=empty)


@st.composite
def mutated(draw, state: set[Atom], objects: list[str], arity: dict[str, int]) -> set[Atom]:
    """``state`` with up to two atoms removed and up to two random atoms added."""
    out = set(state)
    for atom in draw(st.lists(st.sampled_from(sorted(state)), max_size=2)) if state else ():
        out.discard(atom)
    out.update(draw(random_atoms(objects, arity)))
    return out


@st.composite
def partial_goal(draw, target: set[Atom], objects: list[str], arity: dict[str, int]) -> set[Atom]:
    """A random subset of ``target``, sometimes with random extra atoms."""
    keep = draw(st.floats(0.0, 1.0))
    flags = draw(st.lists(st.floats(0.0, 1.0), min_size=len(target), max_size=len(target)))
    goal = {a for a, f in zip(sorted(target), flags, strict=True) if f < keep}
    if draw(st.integers(0, 3)) == 0:
        goal.update(draw(random_atoms(objects, arity, min_size=1)))
    return goal


@st.composite
def blocksworld_problems(draw, max_blocks: int = 5, well_formed: bool = True) -> Problem:
    """A blocksworld problem; ``well_formed=False`` mutates the initial state."""
    blocks = draw(st.lists(st.sampled_from(BLOCK_NAMES), max_size=max_blocks, unique=True))
    init = draw(blocksworld_state(blocks))
    if not well_formed:
        init = draw(mutated(init, blocks, BW_ARITY))
    goal = draw(partial_goal(draw(blocksworld_state(blocks)), blocks, BW_ARITY))
    return _untyped("blocksworld", blocks, init, goal)


@st.composite
def gripper_problems(draw, max_rooms: int = 3, max_balls: int = 4, max_grippers: int = 2,
                     well_formed: bool = True) -> Problem:
    """A gripper problem; ``well_formed=False`` mutates the initial state (kinds included)."""
    rooms = draw(st.lists(st.sampled_from(ROOM_NAMES), max_size=max_rooms, unique=True))
    balls = draw(st.lists(st.sampled_from(BALL_NAMES), max_size=max_balls, unique=True))
    grippers = draw(st.lists(st.sampled_from(GRIPPER_NAMES), max_size=max_grippers, unique=True))
    objects = rooms + balls + grippers
    init = draw(gripper_state(rooms, balls, grippers))
    if not well_formed:
        init = draw(mutated(init, objects, GRIPPER_ARITY))
    target = draw(gripper_state(rooms, balls, grippers))
    goal = draw(partial_goal(target, objects, GRIPPER_ARITY))
    return _untyped("gripper", draw(st.permutations(objects)), init, goal)


@st.composite
def floortile_problems(draw) -> Problem:
    """A grid up to 2x3 with holes and sometimes a self-loop, 1-2 robots, 1-3 colours; one
    problem in five is malformed (a robot on two tiles or none, holding two colours or none)."""
    rows, cols = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    grid = tile_grid(rows, cols, first=0)
    tiles = [t for row in grid for t in row]
    robots = [f"r{i}" for i in range(draw(st.integers(1, 2)))]
    colors = [f"c{i}" for i in range(draw(st.integers(1, 3)))]
    init = grid_facts(grid, keep=lambda: draw(st.integers(0, 9)) > 0)
    if draw(st.integers(0, 9)) == 0:
        tile = draw(st.sampled_from(tiles))
        init.add((draw(st.sampled_from(["up", "right"])), tile, tile))
    well_formed = draw(st.integers(0, 4)) > 0
    for robot in robots:
        sizes = st.just(1) if well_formed else st.integers(0, 2)
        init.update(("robot-at", robot, t)
                    for t in draw(st.lists(st.sampled_from(tiles), min_size=1, max_size=1)
                                  if well_formed else st.sets(st.sampled_from(tiles), max_size=2)))
        n_colours = draw(sizes)
        init.update(("robot-has", robot, c)
                    for c in draw(st.sets(st.sampled_from(colors), min_size=min(n_colours, 1),
                                          max_size=n_colours)))
    init.update(("available-color", c) for c in draw(st.sets(st.sampled_from(colors))))
    init.update(("painted", t, draw(st.sampled_from(colors)))
                for t in draw(st.sets(st.sampled_from(tiles), max_size=2)))
    goal_atoms = st.one_of(
        st.tuples(st.just("painted"), st.sampled_from(tiles), st.sampled_from(colors)),
        st.tuples(st.just("robot-at"), st.sampled_from(robots), st.sampled_from(tiles)),
        st.tuples(st.just("robot-has"), st.sampled_from(robots), st.sampled_from(colors)),
        st.tuples(st.just("available-color"), st.sampled_from(colors)),
        st.tuples(st.just("up"), st.sampled_from(tiles), st.sampled_from(tiles)),
    )
    goal = draw(st.sets(goal_atoms, min_size=1, max_size=4))
    objects = {**dict.fromkeys(tiles, "tile"), **dict.fromkeys(robots, "robot"),
               **dict.fromkeys(colors, "color")}
    return problem_of("floor-tile", objects, init, goal)


@st.composite
def rover_problems(draw) -> Problem:
    """A map of up to 5 waypoints with one-way roads, roads without line of sight and sight
    lines without roads, sometimes without ``available``/``channel_free``, and one init in six
    with the rover on no or two waypoints."""
    waypoints = [f"w{i}" for i in range(draw(st.integers(1, 5)))]
    objectives = [f"o{i}" for i in range(draw(st.integers(1, 2)))]
    modes = [f"m{i}" for i in range(draw(st.integers(1, 2)))]
    pairs = st.tuples(st.sampled_from(waypoints), st.sampled_from(waypoints))
    roads = draw(st.sets(pairs, max_size=8))
    init = road_facts(roads, two_way=draw(st.booleans()))
    init.update(("visible", a, b) for a, b in draw(st.sets(pairs, max_size=3)))
    init.update(("can_traverse", a, b) for a, b in draw(st.sets(pairs, max_size=2)))
    init.update(draw(st.sets(st.sampled_from([("available",), ("channel_free",)]), min_size=0))
                if draw(st.integers(0, 5)) == 0 else {("available",), ("channel_free",)})
    rover_count = st.just(1) if draw(st.integers(0, 5)) > 0 else st.integers(0, 2)
    n = min(draw(rover_count), len(waypoints))
    init.update(("at_rover", w)
                for w in draw(st.sets(st.sampled_from(waypoints), min_size=n, max_size=n)))
    init.add(("at_lander", draw(st.sampled_from(waypoints))))
    init.update(("at_soil_sample", w) for w in draw(st.sets(st.sampled_from(waypoints))))
    init.update(("at_rock_sample", w) for w in draw(st.sets(st.sampled_from(waypoints))))
    init.update(("supports", "cam", m) for m in draw(st.sets(st.sampled_from(modes))))
    init.update(("visible_from", o, w) for o, w in draw(st.sets(
        st.tuples(st.sampled_from(objectives), st.sampled_from(waypoints)), max_size=4)))
    init.update(("have_soil_analysis", w)
                for w in draw(st.sets(st.sampled_from(waypoints), max_size=1)))
    w, o, m = st.sampled_from(waypoints), st.sampled_from(objectives), st.sampled_from(modes)
    goal_atoms = st.one_of(
        st.tuples(st.just("communicated_soil_data"), w),
        st.tuples(st.just("communicated_rock_data"), w),
        st.tuples(st.just("communicated_image_data"), o, m),
        st.tuples(st.just("have_image"), o, m),
        st.tuples(st.just("have_rock_analysis"), w),
        st.tuples(st.just("at_rover"), w),
        st.tuples(st.just("visible"), w, w),
        st.just(("available",)),
    )
    goal = draw(st.sets(goal_atoms, min_size=1, max_size=4))
    objects = {**dict.fromkeys(waypoints, "waypoint"), "cam": "camera",
               **dict.fromkeys(modes, "mode"), **dict.fromkeys(objectives, "objective")}
    return problem_of("rover-single", objects, init, goal)


# ----------------------------------------------------------------- fully_specify against brute force

#: The name under which a domain's specify module imports its brute-force fallback.
FALLBACK = "reachable_goal_intersection"


@contextmanager
def _watching_fallback(specify: ModuleType) -> Iterator[list[Problem]]:
    """Record the problems ``specify`` hands to its brute-force fallback (a module without one
    decides everything in closed form)."""
    calls: list[Problem] = []
    real = getattr(specify, FALLBACK, None)
    if real is None:
        yield calls
        return

    def watched(definition, problem, max_states):
        calls.append(problem)
        return real(definition, problem, max_states)

    with mock.patch.object(specify, FALLBACK, watched):
        yield calls


@dataclass
class SpecifyCheck:
    """``fully_specify`` of ``domain`` (closed form in module ``specify``) against the brute
    force, counting which path decided each problem.

    The brute force is the referee only: a problem the domain hands to its fallback — the very
    same enumeration — is counted as ``fallback`` and not compared (that would compare the
    brute force with itself).  ``closed_form_covers`` must say truthfully which path a problem
    takes (the negative-goal closure relies on it), and a problem called well-formed must never
    reach the fallback.  A problem too large for the referee's ``max_states`` is ``skipped``.
    """

    domain: Domain
    specify: ModuleType
    max_states: int = 100_000
    closed_form: int = 0
    fallback: int = 0
    skipped: int = 0
    _seen: set[Problem] = field(default_factory=set, repr=False)

    def __call__(self, problem: Problem, *, well_formed: bool) -> str:
        """Check one problem; say how it went: ``"closed form"`` (compared), ``"fallback"``,
        ``"too large"`` or ``"repeat"`` (seen before, counted once)."""
        with _watching_fallback(self.specify) as fallback_calls:
            got = self.domain.fully_specify(problem)
        fell_back = bool(fallback_calls)
        covers = self.domain.closed_form_covers(problem)
        assert covers != fell_back, (f"closed_form_covers says {covers}, but fully_specify "
                                     f"{'used' if fell_back else 'did not use'} the fallback: "
                                     f"{problem}")
        assert not (well_formed and fell_back), f"a well-formed problem reached the fallback: {problem}"
        if problem in self._seen:  # hypothesis draws some problems more than once
            return "repeat"
        self._seen.add(problem)
        if fell_back:
            self.fallback += 1
            return "fallback"
        try:
            expected = reachable_goal_intersection(self.domain.definition, problem, self.max_states)
        except ResourceLimitError:
            self.skipped += 1
            return "too large"
        self.closed_form += 1
        assert got == expected, (problem, sorted(got or ()), sorted(expected or ()))
        return "closed form"

    def run(self, strategy: st.SearchStrategy[Problem], *, examples: int, well_formed: bool,
            min_closed_form: int, max_skipped: int = 0) -> None:
        """Check ``examples`` problems drawn from ``strategy``; print the counts and assert at
        least ``min_closed_form`` were decided (and compared) in closed form, and at most
        ``max_skipped`` were too large for the referee."""

        @settings(max_examples=examples, derandomize=True, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(strategy)
        def check(problem: Problem) -> None:
            self(problem, well_formed=well_formed)

        check()
        print(f"\n{self.domain.name}: {self.closed_form} decided in closed form and compared with "
              f"the brute force, {self.fallback} handed to the fallback (not compared), "
              f"{self.skipped} too large for the brute force")
        assert self.closed_form >= min_closed_form, self
        assert self.skipped <= max_skipped, self
