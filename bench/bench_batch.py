"""Whole-batch grading throughput: equivalence + solvability over all four domains.

    python bench/bench_batch.py [--pairs 16000] [--workers 2]

Builds ``--pairs`` dataset-sized pairs spread evenly over blocksworld, gripper, floor-tile and
rover-single (half equivalent renamings, half near misses), grades them with
planetarium.batch.grade_batch (process pool, solvability on) and prints the wall time,
throughput and the verdict counts.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from planetarium.batch import grade_batch
from planetarium.domains import get_domain
from planetarium.testing import pairs
from planetarium.testing.generators_floortile_rover import bench_problem

SIZES = {
    "blocksworld": range(4, 31),
    "gripper": range(2, 25),
    "floor-tile": range(4, 31),
    "rover-single": range(3, 13),
}


def make_problem(domain: str, rng: random.Random):
    size = rng.choice(SIZES[domain])
    if domain == "blocksworld":
        return pairs.blocksworld_problem(rng, size)
    if domain == "gripper":
        return pairs.gripper_problem(rng, size, n_rooms=rng.randint(1, 4))
    return bench_problem(domain, size, rng)


def make_items(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    items = []
    domains = list(SIZES)
    for i in range(n):
        name = domains[i % len(domains)]
        typed = get_domain(name).definition.typed
        truth = make_problem(name, rng)
        pred = truth if rng.random() < 0.5 else pairs.near_miss(truth, rng)
        items.append({"id": i, "gt": pairs.render(truth, rng, rename=False, typed=typed),
                      "pred": pairs.render(pred, rng, typed=typed), "is_placeholder": False})
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=16_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    t0 = time.perf_counter()
    items = make_items(args.pairs, args.seed)
    t1 = time.perf_counter()
    rows = list(grade_batch(items, workers=args.workers, progress=False))
    t2 = time.perf_counter()
    print(f"built {len(items)} pairs in {t1 - t0:.1f} s")
    print(f"graded {len(rows)} pairs with {args.workers} workers in {t2 - t1:.1f} s "
          f"({len(rows) / (t2 - t1):.0f} pairs/s)")
    print("status:", dict(Counter(r.status.value for r in rows)))
    print("(solvable, equivalent):", dict(Counter((r["solvable"], r["equivalent"]) for r in rows)))


if __name__ == "__main__":
    main()
