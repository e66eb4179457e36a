"""Feed hostile model outputs through ``grade`` and count what escaped.

    python bench/fuzz_grading.py [--n 10000] [--timeout 5]

Seeds are the built-in sample's ground truths; each input is one of
planetarium.testing.fuzz.MUTATORS applied to a seed.  Prints counts per status, the number of
internal errors (must be 0), uncaught exceptions (must be 0) and the slowest items against the
time limit.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from importlib.resources import files

from planetarium.grading import Status, grade
from planetarium.testing.fuzz import hostile_outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sample = files("planetarium").joinpath("samples", "pairs.jsonl").read_text()
    truths = sorted({json.loads(line)["gt"] for line in sample.splitlines()})
    rng = random.Random(args.seed)
    statuses: Counter = Counter()
    verdicts: Counter = Counter()
    internal, uncaught, over_limit = 0, 0, 0
    times: list[tuple[float, str]] = []
    start = time.perf_counter()
    for name, text in hostile_outputs(truths, args.n, rng):
        gt = rng.choice(truths)
        t0 = time.perf_counter()
        try:
            result = grade(gt, text, timeout_s=args.timeout)
        except Exception as err:  # noqa: BLE001 - counting escapes is the point
            uncaught += 1
            print(f"UNCAUGHT {name}: {type(err).__name__}: {err}")
            continue
        elapsed = time.perf_counter() - t0
        times.append((elapsed, name))
        over_limit += elapsed > args.timeout + 1.0
        statuses[result.status.value] += 1
        verdicts[(result.parseable, result.equivalent)] += 1
        if result.status is Status.INTERNAL_ERROR:
            internal += 1
            print(f"INTERNAL {name}: {result.reason}")
    total = time.perf_counter() - start
    print(f"inputs: {args.n}  wall: {total:.1f} s  "
          f"median: {1e3 * statistics.median(t for t, _ in times):.2f} ms  "
          f"max: {max(times)[0]:.2f} s ({max(times)[1]})")
    print(f"statuses: {dict(statuses)}")
    print(f"(parseable, equivalent): {dict(verdicts)}")
    print(f"uncaught exceptions: {uncaught}  internal errors: {internal}  "
          f"over the time limit: {over_limit}")


if __name__ == "__main__":
    main()
