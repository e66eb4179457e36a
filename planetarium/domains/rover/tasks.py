"""Dataset layouts for Rover (single rover, single lander): a small split of solvable problems.

A parameter is ``{"shape": ..., "rover": i, "lander": j, "rocks": [...], "soils": [...],
"objectives": [...], "cameras": c, "modes": m}``: waypoint indices are 0-based in the layout's
numbering, ``objectives[k]`` is the waypoint objective k+1 is visible from, and every camera
supports every mode.  The shape depends on the layout: ``[rows, cols]`` for grid, a waypoint
count for line, circle and star (the star's waypoint1 is its centre), ``[left, right]`` for
partitioned.

Why every problem is solvable (the published rover problems never were): the initial state has
``(available)`` and ``(channel_free)``; every link is traversable *and* visible in both
directions, so the map is strongly connected; every waypoint is visible from itself, so the
rover can always talk to the lander from the lander's own waypoint; and every mode is supported
by a camera.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...tasks import Atom, DoesNotFit, DomainTasks, ExplicitTemplates, Instance, Layout, Param
from ...tasks.text import join_words, plural

_KEYS = {"shape", "rover", "lander", "rocks", "soils", "objectives", "cameras", "modes"}


@dataclass(frozen=True)
class _Map:
    """Waypoint count, undirected links and how the texts name the layout."""

    size: int
    links: tuple[tuple[int, int], ...]
    description: str


def _names(prefix: str, indices: Sequence[int]) -> list[str]:
    return [f"{prefix}{i + 1}" for i in indices]


def _range(names: Sequence[str]) -> str:
    return join_words(names) if len(names) <= 3 else f"{names[0]} to {names[-1]}"


def _line(shape: Param) -> _Map:
    n = int(shape)
    if n < 2:
        raise ValueError("a line needs two waypoints")
    return _Map(n, tuple((i, i + 1) for i in range(n - 1)),
                f"{n} waypoints ({_range(_names('waypoint', range(n)))}) in a line, in order; "
                "the rover can move between neighbouring waypoints")


def _circle(shape: Param) -> _Map:
    n = int(shape)
    if n < 3:
        raise ValueError("a circle needs three waypoints")
    return _Map(n, tuple((i, (i + 1) % n) for i in range(n)),
                f"{n} waypoints ({_range(_names('waypoint', range(n)))}) around a circle, in order, "
                f"with waypoint{n} next to waypoint1; the rover can move between neighbouring waypoints")


def _star(shape: Param) -> _Map:
    n = int(shape)
    if n < 3:
        raise ValueError("a star needs a centre and two outer waypoints")
    return _Map(n, tuple((0, i) for i in range(1, n)),
                f"{n} waypoints in a star: waypoint1 is the centre and "
                f"{_range(_names('waypoint', range(1, n)))} "
                "lie around it; the rover can move between the centre and each outer waypoint, "
                "but not directly between two outer waypoints")


def _grid(shape: Param) -> _Map:
    rows, cols = shape
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise ValueError("a grid needs two waypoints")
    links = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    links += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return _Map(rows * cols, tuple(sorted(links)),
                f"{rows * cols} waypoints ({_range(_names('waypoint', range(rows * cols)))}) in a "
                "grid of "
                f"{plural(rows, 'row')} and {plural(cols, 'column')}, numbered row by row from the "
                "top-left corner; the rover can move between horizontally or vertically neighbouring "
                "waypoints")


def _partitioned(shape: Param) -> _Map:
    left, right = shape
    if left < 1 or right < 1:
        raise ValueError("both sides need a waypoint")
    n = left + right
    return _Map(n, tuple((i, j) for i in range(left) for j in range(left, n)),
                f"{n} waypoints on two sides of a ridge: {_range(_names('waypoint', range(left)))} on "
                f"the left and {_range(_names('waypoint', range(left, n)))} on the right; the rover "
                "can move between any left waypoint and any right waypoint, but never between two "
                "waypoints on the same side")


_SHAPES: dict[str, Callable[[Param], _Map]] = {
    "grid": _grid, "line": _line, "circle": _circle, "star": _star, "partitioned": _partitioned,
}


@dataclass(frozen=True)
class _Scene:
    """A checked parameter with its map and object names."""

    world: _Map
    rover: str
    lander: str
    rocks: tuple[str, ...]
    soils: tuple[str, ...]
    sights: tuple[tuple[str, str], ...]  # (objective, waypoint it is visible from)
    cameras: tuple[str, ...]
    modes: tuple[str, ...]

    @classmethod
    def parse(cls, layout: str, param: Param) -> _Scene:
        if not isinstance(param, Mapping) or set(param) != _KEYS:
            raise ValueError(f"rover parameter needs exactly {sorted(_KEYS)}: {param!r}")
        world = _SHAPES[layout](param["shape"])
        places = [param["rover"], param["lander"], *param["rocks"], *param["soils"],
                  *param["objectives"]]
        if any(not 0 <= p < world.size for p in places) or param["cameras"] < 1 or param["modes"] < 1:
            raise ValueError(f"rover parameter outside its map or without camera/mode: {param!r}")
        point = _names("waypoint", range(world.size))
        return cls(
            world=world, rover=point[param["rover"]], lander=point[param["lander"]],
            rocks=tuple(point[i] for i in sorted(set(param["rocks"]))),
            soils=tuple(point[i] for i in sorted(set(param["soils"]))),
            sights=tuple((f"objective{k}", point[i]) for k, i in enumerate(param["objectives"], 1)),
            cameras=tuple(_names("camera", range(param["cameras"]))),
            modes=tuple(_names("mode", range(param["modes"]))),
        )

    @property
    def waypoints(self) -> list[str]:
        return _names("waypoint", range(self.world.size))

    @property
    def objectives(self) -> list[str]:
        return [o for o, _ in self.sights]

    def init_atoms(self) -> list[Atom]:
        point = self.waypoints
        atoms: list[Atom] = [("at_rover", self.rover), ("at_lander", self.lander),
                             ("available",), ("channel_free",)]
        atoms += [("visible", w, w) for w in point]
        for a, b in self.world.links:
            for x, y in ((point[a], point[b]), (point[b], point[a])):
                atoms += [("can_traverse", x, y), ("visible", x, y)]
        atoms += [("at_rock_sample", w) for w in self.rocks]
        atoms += [("at_soil_sample", w) for w in self.soils]
        atoms += [("visible_from", o, w) for o, w in self.sights]
        atoms += [("supports", c, m) for c in self.cameras for m in self.modes]
        return atoms

    def init_text(self) -> str:
        sites = []
        for kind, where in (("rock", self.rocks), ("soil", self.soils)):
            if where:
                sites.append(f"There {'is a' if len(where) == 1 else 'are'} {kind} "
                             f"sample{'s' if len(where) > 1 else ''} at {join_words(where)}.")
        sights = [f"{o} is visible from {w}." for o, w in self.sights]
        return " ".join([
            f"You have {self.world.description}. Every waypoint is visible from itself and from "
            "the waypoints the rover can move to from it.",
            f"The rover is at {self.rover} and the lander is at {self.lander}. The rover is "
            "available and the channel is free.",
            *sites, *sights,
            f"The rover has {plural(len(self.cameras), 'camera')} ({_range(self.cameras)}) and there "
            f"{'is' if len(self.modes) == 1 else 'are'} {plural(len(self.modes), 'mode')} "
            f"({_range(self.modes)}); every camera supports every mode.",
        ])


# --- goals: scene -> (atoms, abstract text) ------------------------------------------------


def _goal_at_lander(scene: _Scene) -> tuple[list[Atom], str]:
    return ([("at_rover", scene.lander)],
            f"Your goal is for the rover to reach the lander's waypoint ({scene.lander}).")


def _goal_rocks(scene: _Scene) -> tuple[list[Atom], str]:
    if not scene.rocks:
        raise DoesNotFit("no rock samples")
    return ([("communicated_rock_data", w) for w in scene.rocks],
            "Your goal is to send the lander the analysis of every rock sample.")


def _goal_soils(scene: _Scene) -> tuple[list[Atom], str]:
    if not scene.soils:
        raise DoesNotFit("no soil samples")
    return ([("communicated_soil_data", w) for w in scene.soils],
            "Your goal is to send the lander the analysis of every soil sample.")


def _goal_images(scene: _Scene) -> tuple[list[Atom], str]:
    if not scene.sights:
        raise DoesNotFit("no objectives")
    return ([("communicated_image_data", o, m) for o in scene.objectives for m in scene.modes],
            "Your goal is to send the lander an image of every objective in every mode.")


def _goal_everything(scene: _Scene) -> tuple[list[Atom], str]:
    atoms = [a for goal in (_goal_rocks, _goal_soils, _goal_images) for a in goal(scene)[0]]
    return atoms, ("Your goal is to send the lander the analysis of every rock sample and of "
                   "every soil sample, and an image of every objective in every mode.")


_GOALS: dict[str, Callable[[_Scene], tuple[list[Atom], str]]] = {
    "at_lander": _goal_at_lander,
    "transmit_rocks": _goal_rocks,
    "transmit_soil": _goal_soils,
    "transmit_images": _goal_images,
    "sample_and_transmit": _goal_everything,
}


def _explicit_intro(objects: tuple[str, ...], types: tuple[str, ...] | None) -> str:
    count = {t: sum(1 for x in types or () if x == t)
             for t in ("waypoint", "camera", "mode", "objective")}
    return (f"You have {plural(count['waypoint'], 'waypoint')}, {plural(count['camera'], 'camera')}, "
            f"{plural(count['mode'], 'mode')} and {plural(count['objective'], 'objective')}.")


def _both(text: str) -> tuple[str, str]:
    """(init, goal) forms of a sentence written with 'is'/'has'."""
    return text, text.replace(" is ", " should be ", 1).replace(" has ", " should have ", 1)


EXPLICIT = ExplicitTemplates(
    intro=_explicit_intro,
    sentences={
        "at_rover": _both("The rover is at {0}."),
        "at_lander": _both("The lander is at {0}."),
        "can_traverse": ("The rover can move from {0} to {1}.",
                         "The rover should be able to move from {0} to {1}."),
        "have_rock_analysis": _both("The rover has an analysis of the rock sample at {0}."),
        "have_soil_analysis": _both("The rover has an analysis of the soil sample at {0}."),
        "supports": ("{0} supports {1}.", "{0} should support {1}."),
        "available": _both("The rover is available."),
        "visible": _both("{1} is visible from {0}."),
        "have_image": _both("The rover has an image of {0} in {1}."),
        "communicated_soil_data": _both("The soil analysis of {0} has been sent to the lander."),
        "communicated_rock_data": _both("The rock analysis of {0} has been sent to the lander."),
        "communicated_image_data": _both("An image of {0} in {1} has been sent to the lander."),
        "at_rock_sample": _both("There is a rock sample at {0}."),
        "at_soil_sample": _both("There is a soil sample at {0}."),
        "visible_from": _both("{0} is visible from {1}."),
        "channel_free": _both("The channel is free."),
    },
)


def build(init: Layout, goal: Layout, param: Param) -> Instance:
    """One Rover problem for ``init -> goal`` sized by ``param`` (or :class:`DoesNotFit`)."""
    scene = _Scene.parse(init.name, param)
    goal_atoms, goal_text = _GOALS[goal.name](scene)
    objects = [*scene.waypoints, *scene.cameras, *scene.modes, *scene.objectives]
    return EXPLICIT.instance(
        objects=objects, init=scene.init_atoms(), goal=goal_atoms,
        init_abstract=scene.init_text(), goal_abstract=goal_text,
        object_types=[o.rstrip("0123456789") for o in objects],
    )


# --- parameter spaces ----------------------------------------------------------------------


def _scenarios(shape: Param, n: int) -> list[Param]:
    """Three placements on an n-waypoint map: lander far from the rover, lander at the start of
    the numbering, lander in the middle; samples and objectives spread over the map."""
    mid, last = n // 2, n - 1
    base = {"shape": shape}
    return [
        {**base, "rover": 0, "lander": last, "rocks": [mid], "soils": [last], "objectives": [1],
         "cameras": 1, "modes": 1},
        {**base, "rover": mid, "lander": 0, "rocks": [1, last], "soils": [mid], "objectives": [last, 1],
         "cameras": 1, "modes": 2},
        {**base, "rover": last, "lander": mid, "rocks": [0], "soils": [0, last], "objectives": [mid],
         "cameras": 2, "modes": 2},
    ]


def _space_counts(smallest: int, largest: int) -> Callable[..., list[Param]]:
    """The space of a layout sized by its waypoint count alone (line, circle, star)."""
    def space(max_waypoints: int = largest) -> list[Param]:
        return [p for n in range(smallest, max_waypoints + 1) for p in _scenarios(n, n)]
    return space


def _space_grid(max_rows: int = 3) -> list[Param]:
    """Grids of 2..max_rows rows and rows..max_rows+1 columns."""
    return [p for rows in range(2, max_rows + 1) for cols in range(rows, max_rows + 2)
            for p in _scenarios([rows, cols], rows * cols)]


def _space_partitioned(max_left: int = 3) -> list[Param]:
    """2..max_left waypoints on the left and left..max_left+1 on the right."""
    return [p for left in range(2, max_left + 1) for right in range(left, max_left + 2)
            for p in _scenarios([left, right], left + right)]


TASKS = DomainTasks(
    domain="rover-single",
    layouts=(
        Layout("grid", "init", space=_space_grid, summary="waypoints in a grid"),
        Layout("line", "init", space=_space_counts(3, 7), summary="waypoints in a line"),
        Layout("circle", "init", space=_space_counts(4, 8), summary="waypoints around a circle"),
        Layout("star", "init", space=_space_counts(4, 7), summary="a centre waypoint with spokes"),
        Layout("partitioned", "init", space=_space_partitioned,
               summary="two sides, every crossing allowed, no move within a side"),
        Layout("at_lander", "goal", summary="the rover at the lander's waypoint"),
        Layout("transmit_rocks", "goal", summary="every rock analysis sent"),
        Layout("transmit_soil", "goal", summary="every soil analysis sent"),
        Layout("transmit_images", "goal", summary="an image of every objective in every mode sent"),
        Layout("sample_and_transmit", "goal", summary="every analysis and image sent"),
    ),
    build=build,
    explicit=EXPLICIT,
    typed=True,
)
