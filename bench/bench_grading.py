"""Time equivalence grading per stage on generated pairs, by domain and size.

    python bench/bench_grading.py [--pairs 200] [--domains blocksworld,gripper,floor-tile,rover-single]

Prints median and p95 milliseconds per pair for: parsing both problems, fully specifying both
goals, the isomorphism checks (``compare`` minus fully_specify) and the total of
``grade(check_solvable=False)``, single process.  Half the predictions are equivalent renamings,
half near misses.  Each pair is timed ``--repeat`` times and its fastest run kept: this shared
2-core machine slows down by up to 2-3x for seconds at a time (parsing, whose work never varies,
slows down with everything else), and the minimum filters that out where a single run does not.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from planetarium.domains import get_domain
from planetarium.equivalence import Limits, compare
from planetarium.grading import grade
from planetarium.limits import Deadline
from planetarium.pddl import read_problem
from planetarium.testing import pairs
from planetarium.testing.generators import dataset_problem


def _limits():
    """A comparison's own deadline: compare has no default limit."""
    return Limits(Deadline.start(10.0))


#: Blocks, balls, tiles or waypoints per problem.
SIZES = {
    "blocksworld": [4, 8, 16, 24, 32, 48, 64],
    "gripper": [4, 8, 16, 24, 32, 48],
    "floor-tile": [4, 9, 16, 25, 30],
    "rover-single": [3, 5, 8, 12],
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time_stages(domain, gt_text: str, pred_text: str) -> tuple[float, float, float, float]:
    """Seconds for parse, fully_specify, isomorphism and the whole grade() of one pair."""
    t0 = time.perf_counter()
    a = read_problem(gt_text, domain.definition)
    b = read_problem(pred_text, domain.definition)
    t1 = time.perf_counter()
    with Deadline.start(10.0).applied():  # the pair's deadline, as grading applies it
        domain.fully_specify(a)
        domain.fully_specify(b)
    t2 = time.perf_counter()
    compare(a, b, domain, limits=_limits())
    t3 = time.perf_counter()
    grade(gt_text, pred_text, check_solvable=False)
    t4 = time.perf_counter()
    return t1 - t0, t2 - t1, max(0.0, (t3 - t2) - (t2 - t1)), t4 - t3


def bench(domain_name: str, size: int, n: int, rng: random.Random, repeat: int = 1) -> dict:
    domain = get_domain(domain_name)
    typed = domain.definition.typed
    timings: dict[str, list[float]] = {"parse": [], "fully_specify": [], "isomorphism": [], "total": []}
    props = []
    for i in range(n):
        truth = dataset_problem(domain_name, rng, size)
        pred = truth if i % 2 == 0 else pairs.near_miss(truth, rng)
        gt_text = pairs.render(truth, rng, rename=False, typed=typed)
        pred_text = pairs.render(pred, rng, typed=typed)
        props.append(len(truth.init) + len(truth.goal))
        best = [float("inf")] * 4
        for _ in range(repeat):
            for k, seconds in enumerate(_time_stages(domain, gt_text, pred_text)):
                best[k] = min(best[k], seconds)
        for stage, seconds in zip(timings, best, strict=True):
            timings[stage].append(seconds)
    row = {"domain": domain_name, "size": size, "props": int(statistics.median(props))}
    for stage, values in timings.items():
        row[stage] = (1e3 * statistics.median(values), 1e3 * percentile(values, 0.95))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--domains", default="blocksworld,gripper,floor-tile,rover-single")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3,
                        help="time each pair this many times and keep the fastest (default 3)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    header = f"{'domain':13s} {'size':>4s} {'props':>5s} " + " ".join(
        f"{s + ' med/p95 ms':>24s}" for s in ("parse", "fully_specify", "isomorphism", "total"))
    print(header)
    for name in args.domains.split(","):
        for size in SIZES[name]:
            row = bench(name, size, args.pairs, rng, args.repeat)
            cells = " ".join(f"{row[s][0]:11.3f} /{row[s][1]:9.3f}   "
                             for s in ("parse", "fully_specify", "isomorphism", "total"))
            print(f"{name:13s} {size:4d} {row['props']:5d} {cells}", flush=True)


if __name__ == "__main__":
    main()
