"""Random planning problems for tests, benchmarks and plug-in authors: the one place they are built.

Two kinds of helpers live here.

* **Fact builders** turn a structure into atoms: towers into Blocks World facts
  (:func:`tower_facts`), ball placements into Gripper facts (:func:`gripper_facts`), a grid into
  Floor-tile ``up``/``right`` facts (:func:`grid_facts`), roads into Rover facts
  (:func:`road_facts`).  The hypothesis strategies of the tests draw their structures their own
  way (so hypothesis can shrink them) and build the facts here, so what a tower *is* is written
  once.
* **Random builders** draw a structure from a :class:`random.Random` and build its facts: one
  initial-state builder per domain (:func:`blocksworld_init`, :func:`gripper_init`,
  :func:`floortile_init`, :func:`rover_init`; well-formed by default, and keyword knobs break them
  the ways the tests need: blocks resting nowhere, grippers neither free nor carrying, robots on
  two tiles, roads without line of sight...), one builder of dataset-shaped problems per domain
  (:func:`dataset_problem`), the planner tests' mix of both (:func:`random_init`,
  :func:`random_problem`) and goals that need no domain knowledge (:func:`random_walk_goal`,
  :func:`random_atoms`).

Everything is deterministic in the ``rng`` it is given.  Production code never imports this
module (an import-linter contract says so).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from ..domains import get_domain
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..strips.grounding import candidates_for
from ..strips.search import relaxed_ground

#: The built-in domains, in the order tests and benches list them.
DOMAINS = ("blocksworld", "gripper", "floor-tile", "rover-single")


def names(prefix: str, count: int, first: int = 1) -> list[str]:
    """``count`` object names ``prefix1``, ``prefix2``, ... (counted from ``first``)."""
    return [f"{prefix}{i}" for i in range(first, first + count)]


def problem_of(domain: str, objects: Mapping[str, str], init: Iterable[Atom],
               goal: Iterable[Atom] = (), name: str = "p") -> Problem:
    """A problem over ``objects`` (name -> type, in declaration order)."""
    return Problem(name, domain, tuple(objects), tuple(objects.values()), frozenset(init),
                   frozenset(goal))


# ------------------------------------------------------------------------------ Blocks World

def tower_facts(towers: Iterable[Sequence[str]], held: str | None = None) -> set[Atom]:
    """The facts of a complete configuration: ``towers`` (each bottom first) and the block in
    the hand, if any (``arm-empty`` otherwise)."""
    facts: set[Atom] = {("holding", held)} if held else {("arm-empty",)}
    for tower in towers:
        facts.add(("on-table", tower[0]))
        facts.update(("on", upper, lower) for lower, upper in pairwise(tower))
        facts.add(("clear", tower[-1]))
    return facts


def _stack(rng: random.Random, order: Iterable[str], stack_probability: float) -> list[list[str]]:
    """Towers built by placing ``order``'s blocks in turn: each goes on top of a random tower
    with ``stack_probability``, else starts a new one."""
    towers: list[list[str]] = []
    for block in order:
        if towers and rng.random() < stack_probability:
            rng.choice(towers).append(block)
        else:
            towers.append([block])
    return towers


def blocksworld_init(rng: random.Random, blocks: Sequence[str], *, stack_probability: float = 0.6,
                     held_probability: float = 0.0,
                     unplaced_probability: float = 0.0) -> set[Atom]:
    """A random configuration of ``blocks`` (the one tower generator): the blocks shuffled, then
    each stacked on a random tower with ``stack_probability`` or starting a new one, and with
    ``held_probability`` one block in the hand.  With ``unplaced_probability`` one block is left
    out of every atom — it rests nowhere, so the state is not well-formed (no closed form covers
    it)."""
    order = list(blocks)
    rng.shuffle(order)
    if unplaced_probability and order and rng.random() < unplaced_probability:
        order.pop()
    held = order.pop() if held_probability and order and rng.random() < held_probability else None
    return tower_facts(_stack(rng, order, stack_probability), held)


def blocksworld_problem(rng: random.Random, n_blocks: int, *,
                        goal_predicates: Sequence[str] | None = ("on", "on-table")) -> Problem:
    """Random towers of ``b1 .. bN`` to random towers.  The goal keeps the target's facts of
    ``goal_predicates`` (``None``: all of them, ``clear`` and ``arm-empty`` included)."""
    blocks = names("b", n_blocks)
    init = blocksworld_init(rng, blocks)
    target = blocksworld_init(rng, blocks)
    goal = target if goal_predicates is None else {a for a in target if a[0] in goal_predicates}
    return problem_of("blocksworld", dict.fromkeys(blocks, "object"), init, goal, "bench")


# ----------------------------------------------------------------------------------- Gripper

#: Where a ball is: ``("at", room)`` or ``("carry", gripper)``.
Place = tuple[str, str]


def gripper_facts(rooms: Iterable[str], balls: Iterable[str], grippers: Iterable[str], *,
                  robby: Iterable[str], places: Mapping[str, Place],
                  free: Iterable[str]) -> set[Atom]:
    """The kind atoms (``room``, ``ball``, ``gripper``), the robot's rooms, each placed ball's
    place and the free grippers.  Well-formed when the robot is in one room, every ball has one
    place and ``free`` is exactly the grippers that carry nothing."""
    facts: set[Atom] = {("room", r) for r in rooms} | {("ball", b) for b in balls}
    facts.update(("gripper", g) for g in grippers)
    facts.update(("at-robby", r) for r in robby)
    facts.update((how, ball, where) for ball, (how, where) in places.items())
    facts.update(("free", g) for g in free)
    return facts


def gripper_init(rng: random.Random, rooms: Sequence[str], balls: Sequence[str],
                 grippers: Sequence[str], *, robby_counts: Sequence[int] = (1,),
                 free_probability: float = 1.0, dead_probability: float = 0.0,
                 carry_probability: float = 0.0, placed_probability: float = 1.0,
                 ball_room_probability: float = 0.0) -> set[Atom]:
    """A random placement: the robot in ``rng.choice(robby_counts)`` rooms and every ball in a
    random room.  The defaults are well-formed (robot in one room, grippers free); the knobs
    break it: a gripper is free with ``free_probability``, else *dead* (neither free nor
    carrying) with ``dead_probability``, else it carries a ball when one draws it (with
    ``carry_probability``; one no ball takes stays dead); a ball in no gripper is in a room with
    ``placed_probability`` (else nowhere); ``ball_room_probability`` makes the first ball a room
    too."""
    facts: set[Atom] = set()
    if ball_room_probability and rooms and balls and rng.random() < ball_room_probability:
        facts.add(("room", balls[0]))
    robby = rng.sample(list(rooms), min(len(rooms), rng.choice(robby_counts)))
    free: list[str] = []
    loadable: list[str] = []
    for gripper in grippers:
        roll = rng.random() if free_probability < 1 else 0.0
        if roll < free_probability:
            free.append(gripper)
        elif roll >= free_probability + dead_probability:
            loadable.append(gripper)
    places: dict[str, Place] = {}
    for ball in balls:
        if loadable and rng.random() < carry_probability:
            places[ball] = ("carry", loadable.pop())
        elif rooms and (placed_probability >= 1 or rng.random() < placed_probability):
            places[ball] = ("at", rng.choice(rooms))
    return facts | gripper_facts(rooms, balls, grippers, robby=robby, places=places, free=free)


def gripper_problem(rng: random.Random, n_balls: int, *, n_rooms: int = 3,
                    n_grippers: int = 2) -> Problem:
    """Balls spread over rooms, each to be taken to a random room (grippers left implicit)."""
    rooms, balls = names("room", n_rooms), names("ball", n_balls)
    grippers = names("gripper", n_grippers)
    init = gripper_init(rng, rooms, balls, grippers)
    goal = {("at", b, rng.choice(rooms)) for b in balls}
    return problem_of("gripper", dict.fromkeys(rooms + balls + grippers, "object"), init, goal,
                      "bench")


# -------------------------------------------------------------------------------- Floor-tile

def tile_grid(rows: int, cols: int, first: int = 1) -> list[list[str]]:
    """Tile names ``tile_R-C`` by row (the first row is the bottom one), counted from ``first``."""
    return [[f"tile_{r}-{c}" for c in range(first, first + cols)]
            for r in range(first, first + rows)]


def grid_facts(tiles: Sequence[Sequence[str]],
               keep: Callable[[], bool] = lambda: True) -> set[Atom]:
    """``up`` and ``right`` facts between neighbours of the grid ``tiles`` (rows, bottom first).
    ``keep`` is asked once per neighbouring pair, row by row, ``up`` before ``right``: a random
    ``keep`` leaves holes in the grid."""
    facts: set[Atom] = set()
    for r, row in enumerate(tiles):
        for c, tile in enumerate(row):
            if r + 1 < len(tiles) and keep():
                facts.add(("up", tiles[r + 1][c], tile))
            if c + 1 < len(row) and keep():
                facts.add(("right", row[c + 1], tile))
    return facts


def floortile_init(rng: random.Random, tiles: Sequence[Sequence[str]], robots: Sequence[str],
                   colors: Sequence[str], *, edge_probability: float = 1.0,
                   self_loop_probability: float = 0.0, available_probability: float = 1.0,
                   robot_tiles: Sequence[int] = (1,), colours_held: tuple[int, int] = (1, 1),
                   painted_probability: float = 0.0,
                   start_tiles: Sequence[str] | None = None) -> set[Atom]:
    """A grid with robots on it.  The defaults are well-formed: the whole grid, every colour
    available, each robot on one tile of ``start_tiles`` (default: any) holding one colour.  The
    knobs make holes (``edge_probability`` per edge), a tile above itself, unavailable colours,
    robots on ``rng.choice(robot_tiles)`` tiles holding ``randint(*colours_held)`` colours, and
    tiles painted from the start."""
    flat = [t for row in tiles for t in row]
    starts = list(start_tiles) if start_tiles is not None else flat
    facts = grid_facts(tiles, (lambda: rng.random() < edge_probability)
                       if edge_probability < 1 else (lambda: True))
    if self_loop_probability and rng.random() < self_loop_probability:
        tile = rng.choice(flat)
        facts.add(("up", tile, tile))
    facts.update(("available-color", c) for c in colors
                 if available_probability >= 1 or rng.random() < available_probability)
    for robot in robots:
        count = min(len(starts), rng.choice(robot_tiles))
        facts.update(("robot-at", robot, t) for t in rng.sample(starts, count))
        facts.update(("robot-has", robot, c)
                     for c in rng.sample(list(colors), rng.randint(*colours_held)))
    if painted_probability:
        facts.update(("painted", t, rng.choice(colors)) for t in flat
                     if rng.random() < painted_probability)
    return facts


#: Goal patterns of the dataset's floor-tile layouts.
FLOORTILE_PATTERNS = ("all", "checkerboard", "rings", "subset")


def _grid_shape(n_tiles: int) -> tuple[int, int]:
    """The most nearly square rows x columns grid with exactly ``n_tiles`` tiles."""
    rows = max(r for r in range(1, math.isqrt(n_tiles) + 1) if n_tiles % r == 0)
    return rows, n_tiles // rows


def floortile_problem(rng: random.Random, n_tiles: int, *, robots: tuple[int, int] = (1, 3),
                      colours: tuple[int, int] = (2, 3),
                      patterns: Sequence[str] = FLOORTILE_PATTERNS,
                      first_row_free: bool = False) -> Problem:
    """A grid of ``n_tiles`` tiles, ``randint(*robots)`` robots each holding a colour and
    ``randint(*colours)`` available colours, painted in a pattern: every tile one colour, a
    checkerboard, rings or a random subset; sometimes a robot must also end on a given tile.
    ``first_row_free`` is the IPC layout: the robots start on the bottom row, which the pattern
    leaves unpainted."""
    rows, cols = _grid_shape(n_tiles)
    tiles = tile_grid(rows, cols)
    robot_names = names("robot", rng.randint(*robots))
    colour_names = names("color", rng.randint(*colours))
    init = floortile_init(rng, tiles, robot_names, colour_names,
                          start_tiles=tiles[0] if first_row_free else None)
    pattern = rng.choice(patterns)
    goal: set[Atom] = set()
    for r, row in enumerate(tiles[1:] if first_row_free else tiles, 2 if first_row_free else 1):
        for c, tile in enumerate(row, 1):
            if pattern == "all":
                goal.add(("painted", tile, colour_names[0]))
            elif pattern == "checkerboard":
                goal.add(("painted", tile, colour_names[(r + c) % 2]))
            elif pattern == "rings":
                ring = min(r - 1, c - 1, rows - r, cols - c)
                goal.add(("painted", tile, colour_names[ring % len(colour_names)]))
            elif rng.random() < 0.5:
                goal.add(("painted", tile, rng.choice(colour_names)))
    if not goal or (not first_row_free and rng.random() < 0.2):
        goal.add(("robot-at", robot_names[0], rng.choice([t for row in tiles for t in row])))
    objects = {**{t: "tile" for row in tiles for t in row}, **dict.fromkeys(robot_names, "robot"),
               **dict.fromkeys(colour_names, "color")}
    return problem_of("floor-tile", objects, init, goal, "bench")


# ------------------------------------------------------------------------------------- Rover

def road_facts(roads: Iterable[tuple[str, str]], *, two_way: bool) -> set[Atom]:
    """A drivable road from ``a`` to ``b`` is ``can_traverse`` plus line of sight ``visible``
    (navigate needs both); ``two_way`` adds the road back."""
    facts: set[Atom] = set()
    for a, b in roads:
        facts.update({("can_traverse", a, b), ("visible", a, b)})
        if two_way:
            facts.update({("can_traverse", b, a), ("visible", b, a)})
    return facts


def rover_init(rng: random.Random, waypoints: Sequence[str], objectives: Sequence[str],
               modes: Sequence[str], cameras: Sequence[str], *, connected: bool = True,
               road_probability: float = 0.45, two_way_probability: float = 0.85,
               sight_only_probability: float = 0.15, power_probability: float = 1.0,
               rover_counts: Sequence[int] = (1,), sample_probability: float = 0.4,
               support_probability: float = 0.4, sight_probability: float = 0.3,
               analysed_probability: float = 0.0) -> set[Atom]:
    """A map, samples, cameras and one lander.  ``connected`` lays a random two-way spanning
    tree first, so every waypoint is reachable; then each other pair of waypoints gets a road
    with ``road_probability`` (two-way with ``two_way_probability``, else one-way), or else a
    line of sight alone with ``sight_only_probability``.  The rover is on
    ``rng.choice(rover_counts)`` waypoints; ``available`` and ``channel_free`` hold with
    ``power_probability``; soil and rock samples lie on a waypoint, each camera supports a mode
    and each objective is visible from a waypoint with their probabilities; the rover has
    analysed a waypoint's soil already with ``analysed_probability``."""
    power = power_probability >= 1 or rng.random() < power_probability
    facts: set[Atom] = {("available",), ("channel_free",)} if power else set()
    tree: set[tuple[str, str]] = set()
    if connected:
        for i in range(1, len(waypoints)):
            road = (waypoints[rng.randrange(i)], waypoints[i])
            tree.update({road, road[::-1]})
            facts |= road_facts([road], two_way=True)
    for a in waypoints:
        for b in waypoints:
            if (a, b) in tree:
                continue
            if a < b and rng.random() < road_probability:
                two_way = rng.random() < two_way_probability
                facts |= road_facts([(a, b) if two_way else rng.choice(((a, b), (b, a)))],
                                    two_way=two_way)
            elif a != b and rng.random() < sight_only_probability:
                facts.add(("visible", a, b))
    facts.add(("at_lander", rng.choice(waypoints)))
    facts.update(("at_rover", w) for w in rng.sample(list(waypoints), rng.choice(rover_counts)))
    facts.update(("at_soil_sample", w) for w in waypoints if rng.random() < sample_probability)
    facts.update(("at_rock_sample", w) for w in waypoints if rng.random() < sample_probability)
    facts.update(("supports", c, m) for c in cameras for m in modes
                 if rng.random() < support_probability)
    facts.update(("visible_from", o, w) for o in objectives for w in waypoints
                 if rng.random() < sight_probability)
    facts.update(("have_soil_analysis", w) for w in waypoints
                 if analysed_probability and rng.random() < analysed_probability)
    return facts


def rover_problem(rng: random.Random, n_waypoints: int) -> Problem:
    """A connected map of ``n_waypoints`` (about as many extra roads as half the waypoints,
    some one-way), one lander, samples, two cameras and objectives; the goal asks for about half
    the samples' data and one image per objective the rover can take, and sometimes a final
    position.  Solvable: every waypoint is reachable, every requested image possible."""
    waypoints = names("waypoint", n_waypoints)
    objectives = names("objective", max(1, n_waypoints // 3))
    modes, cameras = ["colour", "high_res", "low_res"], ["camera1", "camera2"]
    init = rover_init(rng, waypoints, objectives, modes, cameras,
                      road_probability=1 / max(1, n_waypoints - 1), two_way_probability=0.7,
                      sight_only_probability=0.0, support_probability=0.67,
                      sight_probability=min(1.0, 2 / n_waypoints))
    goal: set[Atom] = set()
    for kind in ("soil", "rock"):
        goal.update((f"communicated_{kind}_data", a[1]) for a in sorted(init)
                    if a[0] == f"at_{kind}_sample" and rng.random() < 0.5)
    supported = sorted({a[2] for a in init if a[0] == "supports"})
    seen = {a[1] for a in init if a[0] == "visible_from"}
    for objective in objectives:
        if supported and objective in seen:
            goal.add(("communicated_image_data", objective, rng.choice(supported)))
    if not goal or rng.random() < 0.3:
        goal.add(("at_rover", rng.choice(waypoints)))
    objects = {**dict.fromkeys(waypoints, "waypoint"), **dict.fromkeys(cameras, "camera"),
               **dict.fromkeys(modes, "mode"), **dict.fromkeys(objectives, "objective")}
    return problem_of("rover-single", objects, init, goal, "bench")


# ---------------------------------------------------------------------- every domain at once

def dataset_problem(domain: str, rng: random.Random, size: int) -> Problem:
    """A dataset-shaped ground truth of a built-in ``domain``: ``size`` blocks, balls, tiles or
    waypoints."""
    if domain == "blocksworld":
        return blocksworld_problem(rng, size)
    if domain == "gripper":
        return gripper_problem(rng, size)
    if domain == "floor-tile":
        return floortile_problem(rng, size)
    if domain == "rover-single":
        return rover_problem(rng, size)
    raise ValueError(f"no generator for domain '{domain}'")


def messy_init(domain: str, rng: random.Random, sizes: Sequence[int]) -> Problem:
    """An initial state (empty goal) well-formed or broken the ways model output can be, for the
    planner and solvability tests.  ``sizes``: blocks; rooms, balls, grippers; rows, columns,
    robots, colours; or waypoints, objectives, modes.

    Blocks World: towers, sometimes a held block, sometimes a block no atom mentions.  Gripper:
    the robot in zero to two rooms, dead grippers, balls nowhere, a ball that is also a room.
    Floor-tile: a grid with holes and a self-loop, robots on zero to two tiles holding any
    number of colours, unavailable colours, tiles painted already.  Rover: a map that may be
    disconnected, one-way roads and sight lines without roads, the rover on zero to two
    waypoints, the power off, soil analysed already.
    """
    if domain == "blocksworld":
        blocks = names("b", sizes[0], first=0)
        init = blocksworld_init(rng, blocks, stack_probability=0.5, held_probability=0.3,
                                unplaced_probability=0.3)
        return problem_of(domain, dict.fromkeys(blocks, "object"), init)
    if domain == "gripper":
        rooms, balls = names("room", sizes[0], first=0), names("ball", sizes[1], first=0)
        grippers = names("g", sizes[2], first=0)
        init = gripper_init(rng, rooms, balls, grippers, robby_counts=(0, 1, 1, 1, 2),
                            free_probability=0.7, dead_probability=0.1, carry_probability=0.3,
                            placed_probability=0.9, ball_room_probability=0.1)
        return problem_of(domain, dict.fromkeys(rooms + balls + grippers, "object"), init)
    if domain == "floor-tile":
        rows, cols, n_robots, n_colors = sizes
        tiles = tile_grid(rows, cols, first=0)
        robots, colors = names("robot", n_robots, first=0), names("c", n_colors, first=0)
        init = floortile_init(rng, tiles, robots, colors, edge_probability=0.85,
                              self_loop_probability=0.1, available_probability=0.7,
                              robot_tiles=(0, 1, 1, 1, 2), colours_held=(0, n_colors),
                              painted_probability=0.1)
        objects = {**{t: "tile" for row in tiles for t in row}, **dict.fromkeys(robots, "robot"),
                   **dict.fromkeys(colors, "color")}
        return problem_of(domain, objects, init)
    if domain == "rover-single":
        waypoints = names("waypoint", sizes[0], first=0)
        objectives = names("objective", sizes[1], first=0)
        modes, cameras = names("m", sizes[2], first=0), names("camera", 2, first=0)
        init = rover_init(rng, waypoints, objectives, modes, cameras, connected=False,
                          power_probability=0.95, rover_counts=(0, 1, 1, 1, 1, 1, 1, 1, 1, 2),
                          analysed_probability=0.05)
        objects = {**dict.fromkeys(waypoints, "waypoint"), **dict.fromkeys(objectives, "objective"),
                   **dict.fromkeys(modes, "mode"), **dict.fromkeys(cameras, "camera")}
        return problem_of(domain, objects, init)
    raise ValueError(f"no generator for domain '{domain}'")


def random_init(domain: str, rng: random.Random, scale: int) -> Problem:
    """:func:`messy_init` of random sizes, about ``scale`` objects of the main kind."""
    if domain == "blocksworld":
        sizes: tuple[int, ...] = (rng.randint(1, scale + 2),)
    elif domain == "gripper":
        sizes = (rng.randint(1, max(1, scale // 2)), rng.randint(0, scale), rng.randint(0, 3))
    elif domain == "floor-tile":
        sizes = (rng.randint(1, 3), rng.randint(1, max(1, scale // 2)), rng.randint(1, 2),
                 rng.randint(1, 3))
    else:
        sizes = (rng.randint(2, scale + 1), rng.randint(0, 2), rng.randint(1, 2))
    return messy_init(domain, rng, sizes)


def random_problem(domain: str, rng: random.Random, *, scale: int, arbitrary_init: bool = False,
                   goal_atoms: tuple[int, int] = (1, 3), walk_steps: int = 0) -> Problem:
    """A small problem with a random goal, mostly unsolvable: a :func:`random_init` state of
    about ``scale`` objects — or, with ``arbitrary_init``, one to eight arbitrary atoms over its
    objects (malformed states of every kind) — and ``randint(*goal_atoms)`` random atoms, plus,
    with ``walk_steps``, part of a state a random walk of that length reaches."""
    definition = get_domain(domain).definition
    problem = random_init(domain, rng, scale)
    if arbitrary_init:
        problem = replace(problem, init=frozenset(
            random_atoms(definition, problem, rng, rng.randint(1, 8))))
    goal = random_atoms(definition, problem, rng, rng.randint(*goal_atoms))
    if walk_steps:
        goal |= random_walk_goal(definition, problem, rng, walk_steps)
    return replace(problem, goal=frozenset(goal))


# ------------------------------------------------------------------- goals from the domain file

def random_walk(definition: DomainDef, problem: Problem, rng: random.Random,
                steps: int) -> frozenset[Atom]:
    """The state reached from the initial state by up to ``steps`` random applicable actions
    (fewer where none applies)."""
    actions = sorted(relaxed_ground(definition, problem)[0])
    state = frozenset(problem.init)
    for _ in range(steps):
        applicable = [a for a in actions if a[1] <= state]
        if not applicable:
            break
        _, _, add, delete = rng.choice(applicable)
        state = (state - delete) | add
    return state


def random_walk_goal(definition: DomainDef, problem: Problem, rng: random.Random,
                     steps: int) -> set[Atom]:
    """One to six atoms of a state reached by a random walk — mostly atoms actions change: a
    goal solvable by construction."""
    state = random_walk(definition, problem, rng, steps)
    changing = [a for a in sorted(state) if a[0] not in definition.static_predicates]
    pool = changing if changing and rng.random() < 0.9 else sorted(state)
    return set(rng.sample(pool, min(len(pool), rng.randint(1, 6)))) if pool else set()


def random_atoms(definition: DomainDef, problem: Problem, rng: random.Random,
                 count: int) -> set[Atom]:
    """Up to ``count`` atoms, each of a random predicate over random objects of fitting types
    (possibly absurd, like ``(on b1 b1)``); a predicate no object fits is a lost draw."""
    out: set[Atom] = set()
    predicates = sorted(definition.predicates)
    for _ in range(count):
        predicate = rng.choice(predicates)
        args = []
        for param_type in definition.predicates[predicate]:
            fits = candidates_for(definition, problem, param_type)
            if not fits:
                break
            args.append(rng.choice(fits))
        else:
            out.add((predicate, *args))
    return out
