"""Random problems for ACPBench's STRIPS domains: the generic grading path's test and bench data.

The project has closed forms for four domains only; every other domain is graded by the generic
``Domain.fully_specify``.  To check that path against brute force on small problems and time it
at ACPBench's sizes, each of ACPBench's twelve STRIPS domains (their files ship beside this
module, ``acp_domains/``, with their license) gets a *scene* maker: ``(rng, size)`` -> objects
and a sensible initial state (one robot in one place, stacks resting on pallets, every agent in
one role...), plus two atoms no reachable state holds together.  :meth:`AcpGenerator.problem`
adds a goal to a scene: atoms of a state a random walk reaches (reachable by construction,
drawn from the predicates IPC goals use), optionally with negative literals the walk's state
satisfies, or the two exclusive atoms (unreachable by construction).

``size`` counts the domain's main objects (blocks, crates, cars, balls, packages, agents,
directions, waypoints, grid rows or columns); :attr:`AcpGenerator.small` is a size brute force
enumerates in well under a second, :attr:`AcpGenerator.acp` one like ACPBench's problems.
Deterministic in ``rng``.  Production code never imports this module.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, cached_property
from importlib import resources
from itertools import pairwise, permutations

from ..domains.base import Domain
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from .generators import blocksworld_init, names, problem_of, random_walk

#: ACPBench's domain name -> the name it is graded under: the simplified built-in floor-tile
#: holds the name ``floor-tile``, so ACPBench's (IPC's) floor-tile is renamed.
GRADED_NAMES = {"floor-tile": "floor-tile-ipc"}


@cache
def domain_text(file: str) -> str:
    """The PDDL text of ``acp_domains/<file>``, its name changed where :data:`GRADED_NAMES`
    says so."""
    text = resources.files(__package__).joinpath("acp_domains").joinpath(file).read_text()
    for acp, graded in GRADED_NAMES.items():
        text = text.replace(f"(domain {acp})", f"(domain {graded})")
    return text


@dataclass(frozen=True)
class Scene:
    """Objects (name -> type, in declaration order), an initial state, and two atoms that hold
    together in no reachable state."""

    objects: dict[str, str]
    init: frozenset[Atom]
    exclusive: tuple[Atom, Atom]


SceneMaker = Callable[[random.Random, int], Scene]


@dataclass(frozen=True)
class AcpGenerator:
    """Problems of one of ACPBench's domains (module docstring)."""

    file: str
    scene: SceneMaker
    goal_predicates: tuple[str, ...]
    small: int
    acp: int

    @cached_property
    def domain(self) -> Domain:
        """The domain, generic (no closed form): what ``grade --domain FILE`` builds."""
        text = domain_text(self.file)
        return Domain(text.split("(domain", 1)[1].split(")", 1)[0].strip().lower(), text)

    def problem(self, rng: random.Random, size: int, *, goal: str = "reachable",
                negative: bool = False) -> Problem:
        """A problem of ``size`` with a ``"reachable"`` goal (a random walk's state, with
        ``negative`` literals it satisfies too) or an ``"unreachable"`` one."""
        scene = self.scene(rng, size)
        base = problem_of(self.domain.name, scene.objects, scene.init, (), "p")
        if goal == "unreachable":
            return replace(base, goal=frozenset(scene.exclusive))
        if goal != "reachable":
            raise ValueError(f"goal must be 'reachable' or 'unreachable', got {goal!r}")
        definition = self.domain.definition
        state = random_walk(definition, base, rng, rng.randint(1, 4 * size + 4))
        changing = [a for a in sorted(state) if a[0] not in definition.static_predicates]
        pool = [a for a in changing if a[0] in self.goal_predicates] or changing
        chosen = frozenset(rng.sample(pool, min(len(pool), rng.randint(1, max(2, size)))))
        false_now = sorted(a for a in scene.init - state if a[0] not in definition.static_predicates)
        negated = frozenset(rng.sample(false_now, min(len(false_now), rng.randint(1, 2)))) \
            if negative else frozenset()
        return replace(base, goal=chosen, negative_goal=negated)


def _typed(**groups: list[str]) -> dict[str, str]:
    """Objects by type: ``_typed(car=[...], location=[...])``."""
    return {o: kind for kind, objects in groups.items() for o in objects}


def _distinct_pairs(predicate: str, objects: list[str]) -> set[Atom]:
    return {(predicate, x, y) for x, y in permutations(objects, 2)}


def _grid(rows: int, cols: int, name: Callable[[int, int], str]) -> list[list[str]]:
    return [[name(r, c) for c in range(cols)] for r in range(rows)]


def _neighbours(grid: list[list[str]]) -> list[tuple[str, str]]:
    """Every ordered pair of horizontally or vertically adjacent cells."""
    out = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if c + 1 < len(row):
                out += [(cell, row[c + 1]), (row[c + 1], cell)]
            if r + 1 < len(grid):
                out += [(cell, grid[r + 1][c]), (grid[r + 1][c], cell)]
    return out


# ----------------------------------------------------------------------------- the scene makers

def blocksworld_4ops(rng: random.Random, size: int) -> Scene:
    blocks = names("b", max(2, size))
    renamed = {"on-table": "ontable", "arm-empty": "handempty"}
    init = frozenset((renamed.get(a[0], a[0]), *a[1:]) for a in blocksworld_init(rng, blocks))
    return Scene(dict.fromkeys(blocks, "object"), init,
                 (("on", blocks[0], blocks[1]), ("on", blocks[1], blocks[0])))


def depots(rng: random.Random, size: int) -> Scene:
    n_places = max(2, size // 2 + 1)
    depot_count = rng.randint(1, n_places - 1)
    places = names("depot", depot_count, 0) + names("distributor", n_places - depot_count, 0)
    hoists, pallets = names("hoist", n_places, 0), names("pallet", n_places, 0)
    crates, trucks = names("crate", max(2, size), 0), names("truck", rng.randint(1, 2), 0)
    init: set[Atom] = set()
    tops = {}
    for place, hoist, pallet in zip(places, hoists, pallets, strict=True):
        init |= {("at", hoist, place), ("available", hoist), ("at", pallet, place)}
        tops[place] = pallet
    for crate in crates:
        place = rng.choice(places)
        init |= {("at", crate, place), ("on", crate, tops[place])}
        tops[place] = crate
    init |= {("clear", top) for top in tops.values()}
    init |= {("at", truck, rng.choice(places)) for truck in trucks}
    objects = {**_typed(depot=places[:depot_count], distributor=places[depot_count:]),
               **_typed(truck=trucks, hoist=hoists, pallet=pallets, crate=crates)}
    return Scene(objects, frozenset(init),
                 (("on", crates[0], crates[1]), ("on", crates[1], crates[0])))


def ferry(rng: random.Random, size: int) -> Scene:
    cars = names("c", max(1, size), 0)
    locations = names("l", rng.randint(2, max(2, min(4, size // 2 + 1))), 0)
    init = _distinct_pairs("not-eq", locations) | {("at-ferry", rng.choice(locations)),
                                                   ("empty-ferry",)}
    init |= {("at", car, rng.choice(locations)) for car in cars}
    return Scene(_typed(car=cars, location=locations), frozenset(init),
                 (("at-ferry", locations[0]), ("at-ferry", locations[1])))


def floor_tile(rng: random.Random, size: int) -> Scene:
    rows, cols = max(2, size), max(2, size - rng.randint(0, 1))
    grid = _grid(rows, cols, lambda r, c: f"tile_{r}-{c + 1}")
    robots = names("robot", 1 if size <= 2 else rng.randint(1, 2))
    colors = ["white", "black"]
    init: set[Atom] = {("available-color", c) for c in colors}
    for r, row in enumerate(grid):
        for c, tile in enumerate(row):
            if r + 1 < rows:
                init |= {("up", grid[r + 1][c], tile), ("down", tile, grid[r + 1][c])}
            if c + 1 < cols:
                init |= {("right", row[c + 1], tile), ("left", tile, row[c + 1])}
    flat = [t for row in grid for t in row]
    starts = rng.sample(flat, len(robots))
    for robot, tile in zip(robots, starts, strict=True):
        init |= {("robot-at", robot, tile), ("robot-has", robot, rng.choice(colors))}
    init |= {("clear", t) for t in flat if t not in starts}
    return Scene(_typed(tile=flat, robot=robots, color=colors), frozenset(init),
                 (("robot-at", robots[0], flat[0]), ("robot-at", robots[0], flat[-1])))


def gold_miner(rng: random.Random, size: int) -> Scene:
    rows, cols = max(2, size - 1), max(2, size)
    grid = _grid(rows, cols, lambda r, c: f"f{r}-{c}f")
    flat = [t for row in grid for t in row]
    start = grid[rng.randrange(rows)][0]
    gold = grid[rng.randrange(rows)][-1]
    init: set[Atom] = {("connected", x, y) for x, y in _neighbours(grid)}
    init |= {("robot-at", start), ("arm-empty",), ("bomb-at", start), ("laser-at", start),
             ("clear", start), ("gold-at", gold), ("soft-rock-at", gold)}
    for cell in flat:
        if cell in (start, gold):
            continue
        roll = rng.random()
        init.add(("soft-rock-at", cell) if roll < 0.4 else ("hard-rock-at", cell) if roll < 0.6
                 else ("clear", cell))
    return Scene(dict.fromkeys(flat, "loc"), frozenset(init),
                 (("robot-at", flat[0]), ("robot-at", flat[-1])))


def grid(rng: random.Random, size: int) -> Scene:
    side = max(2, size)
    cells = _grid(side, side, lambda r, c: f"pos{r}-{c}")
    flat = [t for row in cells for t in row]
    shapes = names("shape", 1 if side <= 2 else 2, 0)
    keys = names("key", 1 if side <= 2 else rng.randint(2, side), 0)
    start = rng.choice(flat)
    init: set[Atom] = {("conn", x, y) for x, y in _neighbours(cells)}
    init |= {("at-robot", start), ("arm-empty",)}
    for cell in flat:
        if cell != start and rng.random() < 0.25:
            init |= {("locked", cell), ("lock-shape", cell, rng.choice(shapes))}
        else:
            init.add(("open", cell))
    for key in keys:
        init |= {("key-shape", key, rng.choice(shapes)), ("at", key, rng.choice(flat))}
    return Scene(_typed(place=flat, key=keys, shape=shapes), frozenset(init),
                 (("at-robot", flat[0]), ("at-robot", flat[-1])))


def grid_visit_all(rng: random.Random, size: int) -> Scene:
    rows, cols = max(2, size // 2), max(2, size - size // 2 + rng.randint(0, 1))
    cells = _grid(rows, cols, lambda r, c: f"loc-x{c}-y{r}")
    flat = [t for row in cells for t in row]
    start = rng.choice(flat)
    init: set[Atom] = {("connected", x, y) for x, y in _neighbours(cells)}
    init |= {("at-robot", start), ("visited", start)}
    return Scene(dict.fromkeys(flat, "place"), frozenset(init),
                 (("at-robot", flat[0]), ("at-robot", flat[-1])))


def gripper_strips(rng: random.Random, size: int) -> Scene:
    robots = names("robot", 1 if size <= 2 else rng.randint(1, 2))
    rooms = names("room", rng.randint(2, 3))
    balls = names("ball", max(1, size))
    grippers = [f"{side}gripper{i}" for i in range(1, len(robots) + 1) for side in "lr"]
    init: set[Atom] = {("at", ball, rng.choice(rooms)) for ball in balls}
    for i, robot in enumerate(robots):
        init |= {("at-robby", robot, rng.choice(rooms)), ("free", robot, grippers[2 * i]),
                 ("free", robot, grippers[2 * i + 1])}
    return Scene(_typed(robot=robots, room=rooms, ball=balls, gripper=grippers), frozenset(init),
                 (("at-robby", robots[0], rooms[0]), ("at-robby", robots[0], rooms[1])))


def logistics_strips(rng: random.Random, size: int) -> Scene:
    cities = names("c", 2 if size <= 2 else rng.randint(2, 3), 0)
    airports, locations, trucks = [], [], []
    init: set[Atom] = set()
    for i, city in enumerate(cities):
        airport, truck = f"l{i}-0", f"t{i}"
        extra = [f"l{i}-{j}" for j in range(1, rng.randint(1, 2) + (size > 2))]
        airports.append(airport)
        locations += extra
        trucks.append(truck)
        init |= {("in-city", place, city) for place in [airport, *extra]}
        init.add(("at", truck, rng.choice([airport, *extra])))
    planes = names("a", 1 if size <= 3 else 2, 0)
    packages = names("p", max(1, size), 0)
    init |= {("at", plane, rng.choice(airports)) for plane in planes}
    init |= {("at", package, rng.choice(airports + locations)) for package in packages}
    objects = _typed(city=cities, airport=airports, location=locations, truck=trucks,
                     airplane=planes, package=packages)
    return Scene(objects, frozenset(init),
                 (("at", packages[0], airports[0]), ("in", packages[0], trucks[0])))


def rover(rng: random.Random, size: int) -> Scene:
    waypoints = names("waypoint", max(3, size), 0)
    rovers = names("rover", 1 if size <= 3 else 2, 0)
    stores = [f"{r}store" for r in rovers]
    cameras = names("camera", len(rovers), 0)
    objectives = names("objective", 1 if size <= 3 else 2, 0)
    modes = ["colour", "high_res", "low_res"][:2 if size <= 3 else 3]
    lander = "general"
    visible = {(x, y) for x, y in pairwise(waypoints)} | {(y, x) for x, y in pairwise(waypoints)}
    visible |= {(x, y) for x in waypoints for y in waypoints if x != y and rng.random() < 0.3}
    init: set[Atom] = {("visible", x, y) for x, y in visible}
    init |= {("at_lander", lander, rng.choice(waypoints)), ("channel_free", lander)}
    init |= {("at_soil_sample", w) for w in waypoints if rng.random() < 0.4}
    init |= {("at_rock_sample", w) for w in waypoints if rng.random() < 0.4}
    for robot, store, camera in zip(rovers, stores, cameras, strict=True):
        init |= {("at", robot, rng.choice(waypoints)), ("available", robot),
                 ("store_of", store, robot), ("empty", store), ("equipped_for_imaging", robot),
                 ("on_board", camera, robot), ("calibration_target", camera, rng.choice(objectives)),
                 ("equipped_for_soil_analysis" if rng.random() < 0.5
                  else "equipped_for_rock_analysis", robot)}
        init |= {("supports", camera, m) for m in rng.sample(modes, rng.randint(1, len(modes)))}
        init |= {("can_traverse", robot, x, y) for x, y in visible}
    for objective in objectives:
        init |= {("visible_from", objective, w)
                 for w in rng.sample(waypoints, rng.randint(1, len(waypoints)))}
    objects = _typed(rover=rovers, store=stores, camera=cameras, objective=objectives, mode=modes,
                     lander=[lander], waypoint=waypoints)
    return Scene(objects, frozenset(init),
                 (("at", rovers[0], waypoints[0]), ("at", rovers[0], waypoints[1])))


def satellite(rng: random.Random, size: int) -> Scene:
    directions = ["groundstation0", "star1", *names("planet", max(1, size - 2), 2)]
    satellites = names("satellite", 1 if size <= 3 else rng.randint(1, 2), 0)
    modes = ["infrared", "image", "spectrograph", "thermograph"][:2 if size <= 3 else 4]
    instruments: list[str] = []
    init: set[Atom] = set()
    for sat in satellites:
        mine = [f"instrument{len(instruments) + k}" for k in range(1 if size <= 3 else 2)]
        instruments += mine
        init |= {("pointing", sat, rng.choice(directions)), ("power_avail", sat)}
        for instrument in mine:
            init |= {("on_board", instrument, sat),
                     ("calibration_target", instrument, rng.choice(directions[:2]))}
            init |= {("supports", instrument, m)
                     for m in rng.sample(modes, rng.randint(1, len(modes)))}
    objects = _typed(satellite=satellites, instrument=instruments, mode=modes,
                     direction=directions)
    return Scene(objects, frozenset(init),
                 (("pointing", satellites[0], directions[0]),
                  ("pointing", satellites[0], directions[1])))


def swap(rng: random.Random, size: int) -> Scene:
    agents = names("agent", max(2, size))
    roles = names("role", max(2, size))
    shuffled = rng.sample(roles, len(roles))
    init = {("assigned", a, r) for a, r in zip(agents, shuffled, strict=True)}
    init |= _distinct_pairs("not-eq", agents) | _distinct_pairs("not-eq", roles)
    return Scene(_typed(agent=agents, role=roles), frozenset(init),
                 (("assigned", agents[0], roles[0]), ("assigned", agents[0], roles[1])))


#: ACPBench's domain name -> its generator.  ``small``: brute force decides its problems in well
#: under a second; ``acp``: about the size of ACPBench's problems of the domain.
GENERATORS: dict[str, AcpGenerator] = {
    "blocksworld-4ops": AcpGenerator("blocksworld-4ops.pddl", blocksworld_4ops,
                                     ("on", "ontable"), 5, 5),
    "depots": AcpGenerator("depots.pddl", depots, ("on", "at"), 3, 5),
    "ferry": AcpGenerator("ferry.pddl", ferry, ("at", "at-ferry"), 4, 10),
    "floor-tile": AcpGenerator("floor-tile.pddl", floor_tile, ("painted", "robot-at"), 2, 4),
    "gold-miner-typed": AcpGenerator("gold-miner-typed.pddl", gold_miner,
                                     ("holds-gold", "robot-at", "clear"), 2, 4),
    "grid": AcpGenerator("grid.pddl", grid, ("at", "at-robot"), 2, 4),
    "grid-visit-all": AcpGenerator("grid-visit-all.pddl", grid_visit_all,
                                   ("visited", "at-robot"), 4, 14),
    "gripper-strips": AcpGenerator("gripper-strips.pddl", gripper_strips, ("at",), 2, 6),
    "logistics-strips": AcpGenerator("logistics-strips.pddl", logistics_strips, ("at",), 2, 5),
    "rover": AcpGenerator("rover.pddl", rover,
                          ("communicated_soil_data", "communicated_rock_data",
                           "communicated_image_data", "have_soil_analysis",
                           "have_rock_analysis", "have_image", "at"), 3, 8),
    "satellite": AcpGenerator("satellite.pddl", satellite, ("have_image", "pointing"), 3, 6),
    "swap": AcpGenerator("swap-1.pddl", swap, ("assigned",), 4, 8),
}
