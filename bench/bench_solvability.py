"""Solvability time per problem, by domain and size, on dataset-shaped problems.

Prints the median and 95th percentile of the domain planner alone (``solve``) and of the
grader's call (``check_solvable``: planner plus validation of the plan).  Target: median <= 5 ms
per dataset-sized problem with the domain planners.  ``--compare`` also times the generic
planners a plug-in domain would get on the same problems — the built-in search, Mimir and Fast
Downward through unified-planning, when installed — which is how the ``[planners]`` extra was
chosen.  Never asserted in tests: timings belong to the machine.

    python bench/bench_solvability.py [--repeat 50] [--compare]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from planetarium.domains import get_domain
from planetarium.pddl.problem import Problem
from planetarium.errors import ResourceLimitError
from planetarium.pddl.writer import problem_to_pddl
from planetarium.planning import check_solvable
from planetarium.strips.generic import generic_solve
from planetarium.strips.search import solve_by_search


def _problem(domain: str, typed: dict[str, str], init: set, goal: set) -> Problem:
    return Problem("bench", domain, tuple(typed), tuple(typed.values()), frozenset(init),
                   frozenset(goal))


def _towers(rng: random.Random, blocks: list[str]) -> set:
    order = rng.sample(blocks, len(blocks))
    towers: list[list[str]] = []
    for b in order:
        if towers and rng.random() < 0.6:
            rng.choice(towers).append(b)
        else:
            towers.append([b])
    facts = {("arm-empty",)}
    for t in towers:
        facts |= {("on-table", t[0]), ("clear", t[-1])}
        facts |= {("on", up, down) for down, up in zip(t, t[1:])}
    return facts


def blocksworld(rng: random.Random, n: int) -> Problem:
    blocks = [f"b{i}" for i in range(1, n + 1)]
    return _problem("blocksworld", {b: "object" for b in blocks}, _towers(rng, blocks),
                    _towers(rng, blocks))


def gripper(rng: random.Random, balls: int) -> Problem:
    rooms = [f"room{i}" for i in range(rng.randint(2, 4))]
    names = [f"ball{i}" for i in range(1, balls + 1)]
    init = {("room", r) for r in rooms} | {("ball", b) for b in names}
    init |= {("gripper", "left"), ("gripper", "right"), ("free", "left"), ("free", "right"),
             ("at-robby", rooms[0])}
    init |= {("at", b, rng.choice(rooms)) for b in names}
    goal = {("at", b, rng.choice(rooms)) for b in names}
    typed = {o: "object" for o in rooms + names + ["left", "right"]}
    return _problem("gripper", typed, init, goal)


def floortile(rng: random.Random, tiles: int) -> Problem:
    rows = max(1, int(tiles ** 0.5))
    cols = max(1, tiles // rows)
    grid = [[f"tile_{r}-{c}" for c in range(cols)] for r in range(rows)]
    robots = [f"robot{i}" for i in range(1, rng.randint(1, 2) + 1)]
    typed = {t: "tile" for row in grid for t in row}
    typed |= {r: "robot" for r in robots} | {"white": "color", "black": "color"}
    init = {("available-color", "white"), ("available-color", "black")}
    for r in range(rows):
        for c in range(cols):
            if r + 1 < rows:
                init.add(("up", grid[r + 1][c], grid[r][c]))
            if c + 1 < cols:
                init.add(("right", grid[r][c + 1], grid[r][c]))
    for robot in robots:
        init |= {("robot-at", robot, rng.choice(grid[0])), ("robot-has", robot, "white")}
    goal = {("painted", grid[r][c], ("white", "black")[(r + c) % 2])
            for r in range(1, rows) for c in range(cols)}
    return _problem("floor-tile", typed, init, goal)


def rover(rng: random.Random, waypoints: int) -> Problem:
    wp = [f"waypoint{i}" for i in range(waypoints)]
    typed = {w: "waypoint" for w in wp} | {"camera0": "camera", "objective0": "objective",
                                           "objective1": "objective", "colour": "mode",
                                           "high_res": "mode"}
    init = {("available",), ("channel_free",), ("at_rover", wp[0]), ("at_lander", wp[-1]),
            ("supports", "camera0", "colour"), ("supports", "camera0", "high_res")}
    for a, b in zip(wp, wp[1:]):  # a connected two-way spine plus random chords
        init |= {("can_traverse", a, b), ("can_traverse", b, a), ("visible", a, b), ("visible", b, a)}
    for a in wp:
        b = rng.choice(wp)
        if a != b:
            init |= {("can_traverse", a, b), ("can_traverse", b, a), ("visible", a, b), ("visible", b, a)}
    init |= {("at_soil_sample", w) for w in wp if rng.random() < 0.4}
    init |= {("at_rock_sample", w) for w in wp if rng.random() < 0.4}
    init |= {("visible_from", o, rng.choice(wp)) for o in ("objective0", "objective1")}
    goal = {("communicated_soil_data", a[1]) for a in init if a[0] == "at_soil_sample"}
    goal |= {("communicated_rock_data", a[1]) for a in init if a[0] == "at_rock_sample"}
    goal |= {("communicated_image_data", "objective0", "colour"), ("at_rover", rng.choice(wp))}
    return _problem("rover-single", typed, init, goal)


SIZES = {
    "blocksworld": (blocksworld, (4, 10, 20, 30)),
    "gripper": (gripper, (4, 16, 32, 48)),
    "floor-tile": (floortile, (4, 12, 20, 30)),
    "rover-single": (rover, (4, 8, 12)),
}


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered) * 1e3:7.3f} {p95 * 1e3:7.3f}"


def _fast_downward(name: str, problem: Problem, timeout_s: float) -> None:
    """One call through unified-planning, as a grader would make it (files, process, parse)."""
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import OneshotPlanner, get_environment

    get_environment().credits_stream = None
    domain = get_domain(name)
    with tempfile.TemporaryDirectory() as tmp:
        domain_file, problem_file = Path(tmp, "d.pddl"), Path(tmp, "p.pddl")
        domain_file.write_text(domain.pddl)
        problem_file.write_text(problem_to_pddl(problem, typed=domain.definition.typed))
        task = PDDLReader().parse_problem(str(domain_file), str(problem_file))
        with OneshotPlanner(name="fast-downward") as planner:
            planner.solve(task, timeout=timeout_s)


def compare_generic(repeat: int) -> None:
    """Median seconds per problem of each generic planner (floor-tile is left out: UP refuses
    its action 'up', which shares a predicate's name)."""
    planners: dict[str, Callable[[str, Problem], object]] = {
        "built-in search": lambda n, p: solve_by_search(get_domain(n).definition, p, 30.0),
    }
    try:
        import pymimir  # noqa: F401

        planners["mimir (generic_solve)"] = lambda n, p: generic_solve(get_domain(n).definition, p, 30.0)
    except ImportError:
        pass
    try:
        import up_fast_downward  # noqa: F401

        planners["fast-downward via UP"] = lambda n, p: _fast_downward(n, p, 30.0)
    except ImportError:
        pass
    cases = [("blocksworld", 10), ("blocksworld", 20), ("gripper", 16), ("gripper", 48),
             ("rover-single", 8)]
    print(f"\n{'generic planner':<22}" + "".join(f"{n[:5]}-{s:<5}" for n, s in cases) + "(median s)")
    for label, run in planners.items():
        cells = []
        for name, size in cases:
            make = SIZES[name][0]
            rng = random.Random(f"compare-{name}-{size}")
            times = []
            for _ in range(repeat):
                problem = make(rng, size)
                start = time.perf_counter()
                try:
                    run(name, problem)
                except ResourceLimitError:
                    times.append(float("inf"))
                    continue
                times.append(time.perf_counter() - start)
            cells.append(f"{statistics.median(times):<11.3f}")
        print(f"{label:<22}" + "".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="problems per domain and size")
    parser.add_argument("--compare", action="store_true", help="also time the generic planners")
    args = parser.parse_args()
    print(f"{'domain':<13} {'size':>4}   solve ms: median   p95   check_solvable ms: median   p95")
    for name, (make, sizes) in SIZES.items():
        domain = get_domain(name)
        for size in sizes:
            rng = random.Random(f"{name}-{size}")
            solve_t, check_t = [], []
            for _ in range(args.repeat):
                problem = make(rng, size)
                start = time.perf_counter()
                domain.solve(problem, 10.0)
                solve_t.append(time.perf_counter() - start)
                start = time.perf_counter()
                result = check_solvable(domain, problem, 10.0)
                check_t.append(time.perf_counter() - start)
                assert result.status == "solvable", (name, size, result.reason)
            print(f"{name:<13} {size:>4}   {_ms(solve_t):>23}   {_ms(check_t):>30}")
    if args.compare:
        compare_generic(max(1, args.repeat // 10))


if __name__ == "__main__":
    main()
