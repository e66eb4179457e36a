"""Feed hostile model outputs through ``grade`` and count what escaped.

    python bench/fuzz_grading.py [--n 100000] [--timeout 5] [--seed 0] [--slow-share 0.005]

Seeds are the built-in sample's ground truths plus small random problems; each input is one of
planetarium.testing.fuzz.MUTATORS applied to a seed, or (a ``--slow-share`` of them) one of the
slow goal classes of planetarium.testing.fuzz.SLOW_PAIRS graded under ``--slow-timeout``.
Prints the items, statuses, crashes, internal errors, overruns of the limit plus one second of
grace, and how many verdicts the brute-force referee checked and contradicted (all but the
counters must be 0).  Exits 1 if any is not.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib.resources import files

from planetarium.testing.fuzz import fuzz_grading, small_truths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slow-share", type=float, default=0.005,
                        help="Share of items drawn from the slow goal classes.")
    parser.add_argument("--slow-timeout", type=float, default=1.0,
                        help="Time limit for the slow goal classes' items.")
    args = parser.parse_args()
    sample = files("planetarium").joinpath("samples", "pairs.jsonl").read_text()
    rng = random.Random(args.seed)
    truths = sorted({json.loads(line)["gt"] for line in sample.splitlines()}) + small_truths(rng)
    start = time.perf_counter()
    report = fuzz_grading(truths, args.n, rng, timeout_s=args.timeout,
                          slow_share=args.slow_share, slow_timeout_s=args.slow_timeout)
    print(f"wall {time.perf_counter() - start:.1f} s")
    print(report.summary())
    for problem in (report.crashes + report.internal + report.overruns + report.wrong)[:20]:
        print("  ", problem)
    sys.exit(1 if report.crashes or report.internal or report.overruns or report.wrong else 0)


if __name__ == "__main__":
    main()
