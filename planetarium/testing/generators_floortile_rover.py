"""Realistic floor-tile and rover problems for the grading benchmark (bench/bench_grading.py).

The shapes follow the Planetarium dataset rather than uniform noise: floor-tile grids with a few
robots each holding a colour and paint-all / checkerboard / ring / random-subset goals; rover
maps that are connected road networks (mostly two-way, some one-way roads) with one lander,
scattered samples and objectives, and goals that ask for communicated data and sometimes a final
position.  ``size`` is the number of tiles or waypoints.
"""

from __future__ import annotations

import math
import random

from ..pddl.domain import Atom
from ..pddl.problem import Problem

BENCH_SIZES = {
    "floor-tile": [4, 9, 16, 25, 30],
    "rover-single": [3, 5, 8, 12],
}


def _grid_shape(n_tiles: int) -> tuple[int, int]:
    """The most nearly square rows x columns grid with exactly ``n_tiles`` tiles."""
    rows = max(r for r in range(1, math.isqrt(n_tiles) + 1) if n_tiles % r == 0)
    return rows, n_tiles // rows


def floortile_problem(rng: random.Random, n_tiles: int) -> Problem:
    """A grid of ``n_tiles`` tiles (tile_R-C, row 1 at the bottom), 1-3 robots, 2-3 colours."""
    rows, cols = _grid_shape(n_tiles)
    tiles = [f"tile_{r}-{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)]
    robots = [f"robot{i}" for i in range(1, rng.randint(1, 3) + 1)]
    colors = [f"color{i}" for i in range(1, rng.randint(2, 3) + 1)]
    init: set[Atom] = {("available-color", c) for c in colors}
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            if r < rows:
                init.add(("up", f"tile_{r + 1}-{c}", f"tile_{r}-{c}"))
            if c < cols:
                init.add(("right", f"tile_{r}-{c + 1}", f"tile_{r}-{c}"))
    for robot in robots:
        init.add(("robot-at", robot, rng.choice(tiles)))
        init.add(("robot-has", robot, rng.choice(colors)))
    pattern = rng.choice(["all", "checkerboard", "rings", "subset"])
    goal: set[Atom] = set()
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            tile = f"tile_{r}-{c}"
            if pattern == "all":
                goal.add(("painted", tile, colors[0]))
            elif pattern == "checkerboard":
                goal.add(("painted", tile, colors[(r + c) % 2]))
            elif pattern == "rings":
                ring = min(r - 1, c - 1, rows - r, cols - c)
                goal.add(("painted", tile, colors[ring % len(colors)]))
            elif rng.random() < 0.5:
                goal.add(("painted", tile, rng.choice(colors)))
    if not goal or rng.random() < 0.2:
        goal.add(("robot-at", robots[0], rng.choice(tiles)))
    objects = tiles + robots + colors
    types = ["tile"] * len(tiles) + ["robot"] * len(robots) + ["color"] * len(colors)
    return Problem("bench", "floor-tile", tuple(objects), tuple(types),
                   frozenset(init), frozenset(goal))


def rover_problem(rng: random.Random, n_waypoints: int) -> Problem:
    """A connected map of ``n_waypoints`` waypoints, one lander, samples and image objectives."""
    waypoints = [f"waypoint{i}" for i in range(1, n_waypoints + 1)]
    objectives = [f"objective{i}" for i in range(1, max(1, n_waypoints // 3) + 1)]
    modes = ["colour", "high_res", "low_res"]
    cameras = ["camera1", "camera2"]
    init: set[Atom] = {("available",), ("channel_free",),
                       ("at_rover", rng.choice(waypoints)), ("at_lander", rng.choice(waypoints))}
    tree = [(waypoints[rng.randrange(i)], waypoints[i]) for i in range(1, n_waypoints)]
    shortcuts = [rng.sample(waypoints, 2) for _ in range(n_waypoints // 2) if n_waypoints > 1]
    for a, b in tree + shortcuts:
        init.update({("can_traverse", a, b), ("visible", a, b), ("visible", b, a)})
    for a, b in tree + [s for s in shortcuts if rng.random() < 0.7]:  # a few one-way shortcuts
        init.add(("can_traverse", b, a))
    for w in waypoints:
        if rng.random() < 0.4:
            init.add(("at_soil_sample", w))
        if rng.random() < 0.4:
            init.add(("at_rock_sample", w))
    for camera in cameras:
        init.update(("supports", camera, m) for m in rng.sample(modes, 2))
    supported = sorted({a[2] for a in init if a[0] == "supports"})
    for objective in objectives:
        init.update(("visible_from", objective, w)
                    for w in rng.sample(waypoints, rng.randint(1, min(3, n_waypoints))))
    goal: set[Atom] = set()
    for w in waypoints:
        if ("at_soil_sample", w) in init and rng.random() < 0.5:
            goal.add(("communicated_soil_data", w))
        if ("at_rock_sample", w) in init and rng.random() < 0.5:
            goal.add(("communicated_rock_data", w))
    for objective in objectives:
        goal.add(("communicated_image_data", objective, rng.choice(supported)))
    if rng.random() < 0.3:
        goal.add(("at_rover", rng.choice(waypoints)))
    objects = waypoints + cameras + modes + objectives
    types = (["waypoint"] * len(waypoints) + ["camera"] * len(cameras) + ["mode"] * len(modes)
             + ["objective"] * len(objectives))
    return Problem("bench", "rover-single", tuple(objects), tuple(types),
                   frozenset(init), frozenset(goal))


def bench_problem(domain: str, size: int, rng: random.Random) -> Problem:
    """A ground-truth problem of ``domain`` ('floor-tile' or 'rover-single') of ``size``."""
    if domain == "floor-tile":
        return floortile_problem(rng, size)
    if domain == "rover-single":
        return rover_problem(rng, size)
    raise ValueError(f"no benchmark generator for domain '{domain}'")
