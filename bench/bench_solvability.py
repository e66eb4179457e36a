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
from collections.abc import Callable
from functools import partial
from pathlib import Path

from planetarium.domains import get_domain
from planetarium.errors import ResourceLimitError
from planetarium.limits import Deadline
from planetarium.pddl.problem import Problem
from planetarium.pddl.writer import problem_to_pddl
from planetarium.planning import check_solvable
from planetarium.strips.generic import generic_solve
from planetarium.strips.search import solve_by_search
from planetarium.testing.generators import (
    blocksworld_problem,
    floortile_problem,
    gripper_problem,
    rover_problem,
)


def _gripper(rng: random.Random, balls: int) -> Problem:
    return gripper_problem(rng, balls, n_rooms=rng.randint(2, 4))


def _floortile(rng: random.Random, tiles: int) -> Problem:
    """The IPC layout: one or two robots on the bottom row, a checkerboard above it."""
    return floortile_problem(rng, tiles, robots=(1, 2), colours=(2, 2), patterns=("checkerboard",),
                             first_row_free=True)


#: Problem builder and sizes (blocks, balls, tiles, waypoints) per domain; every problem is
#: solvable, whole target configurations for Blocks World.
SIZES: dict[str, tuple[Callable[[random.Random, int], Problem], tuple[int, ...]]] = {
    "blocksworld": (partial(blocksworld_problem, goal_predicates=None), (4, 10, 20, 30)),
    "gripper": (_gripper, (4, 16, 32, 48)),
    "floor-tile": (_floortile, (4, 12, 20, 30)),
    "rover-single": (rover_problem, (4, 8, 12)),
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
        "built-in search": lambda n, p: solve_by_search(get_domain(n).definition, p,
                                                            Deadline.start(30.0)),
    }
    try:
        import pymimir  # noqa: F401

        planners["mimir (generic_solve)"] = lambda n, p: generic_solve(get_domain(n).definition, p,
                                                                           Deadline.start(30.0))
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
                domain.solve(problem, Deadline.start(10.0))
                solve_t.append(time.perf_counter() - start)
                start = time.perf_counter()
                result = check_solvable(domain, problem, Deadline.start(10.0))
                check_t.append(time.perf_counter() - start)
                assert result.status == "solvable", (name, size, result.reason)
            print(f"{name:<13} {size:>4}   {_ms(solve_t):>23}   {_ms(check_t):>30}")
    if args.compare:
        compare_generic(max(1, args.repeat // 10))


if __name__ == "__main__":
    main()
