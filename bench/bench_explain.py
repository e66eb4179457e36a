"""Explain thousands of generated wrong answers and check every explanation is a certificate.

    python bench/bench_explain.py [--config data/demo.yaml] [--per-row 3] [--rows 0] [--seed 0]

Wrong answers are built from dataset rows (the generator's ground truths, in each row's own
grading mode) by :mod:`planetarium.testing.wrong_answers` — near misses, goal or initial facts
dropped or added, an object too many or too few, goal objects swapped — and by the fuzzer's
hostile rewrites (:mod:`planetarium.testing.fuzz`, unparseable answers).  Each is graded with
``explain=True`` and checked by :func:`planetarium.testing.certificates.check_certificate`
(undo the differences, grade again: equivalent; brute force on problems of at most 6 objects).

Prints: how many answers of each kind, how many certificates were checked and verified, the
share of renamings proven optimal, time per answer graded without and with the explanation
(median, p95, max; both include solving), the error categories per mutation, and the time to
explain an obvious "no" (a 4-block ground truth against thousands of blocks).  Single process,
on a shared machine: timings are indicative.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace

from bench_grading import percentile  # the benches' one percentile (run as scripts)

from planetarium.dataset.config import load_config
from planetarium.dataset.generator import generate
from planetarium.grading import GradeOptions, grade, load_ground_truth
from planetarium.pddl.writer import problem_to_pddl
from planetarium.testing.certificates import check_certificate
from planetarium.testing.fuzz import hostile_outputs
from planetarium.testing.wrong_answers import wrong_answers


def answers(rows: list[dict], per_row: int, rng: random.Random):
    """(row, how, PDDL text) for every wrong answer of every row, then hostile rewrites."""
    for row in rows:
        domain, truth = load_ground_truth(row["problem_pddl"])
        for how, wrong in wrong_answers(truth, rng, per_problem=per_row):
            yield row, how, problem_to_pddl(wrong, typed=domain.definition.typed)
    seeds = [row["problem_pddl"] for row in rows[:50]]
    by_text = {row["problem_pddl"]: row for row in rows}
    for how, text in hostile_outputs(seeds, max(20, len(rows) // 20), rng):
        yield by_text.get(text, rows[0]), f"fuzz:{how}", text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="data/demo.yaml")
    parser.add_argument("--per-row", type=int, default=3)
    parser.add_argument("--rows", type=int, default=0, help="use the first N rows (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rows = generate(load_config(args.config))
    rng.shuffle(rows)
    rows = rows[:args.rows] if args.rows else rows
    kinds: Counter[str] = Counter()
    categories: defaultdict[str, Counter[str]] = defaultdict(Counter)
    checked = verified = optimal = incomplete = 0
    plain_ms, explained_ms, failures = [], [], []
    for row, how, text in answers(rows, args.per_row, rng):
        options = GradeOptions(is_placeholder=bool(row["is_placeholder"]))
        start = time.perf_counter()
        plain = grade(row["problem_pddl"], text, options=options)
        middle = time.perf_counter()
        grade(row["problem_pddl"], text, options=replace(options, explain=True))
        plain_ms.append(1000 * (middle - start))
        explained_ms.append(1000 * (time.perf_counter() - middle))
        check = check_certificate(row["problem_pddl"], text, options, brute_force_max_objects=6)
        explained = check.result
        e = explained.explanation
        assert explained.equivalent == plain.equivalent, "an explanation changed a verdict"
        kinds[e.kind if e else f"none ({explained.status})"] += 1
        incomplete += bool(e and not e.complete)
        if e is not None:
            categories[how.split(":")[0]].update(e.categories or ("(none)",))
        if check.checked:
            checked += 1
            verified += check.ok
            optimal += e is not None and e.optimal
            if not check.ok:
                failures.append(f"{row['id']} {how}: {check.why}")
    total = sum(kinds.values())
    print(f"answers: {total} from {len(rows)} rows ({args.config})")
    print("kinds:", dict(sorted(kinds.items())))
    print(f"certificates checked: {checked}; verified: {verified}; failed: {checked - verified}")
    print(f"renamings proven optimal: {optimal}/{checked} ({100 * optimal / max(1, checked):.1f}%)")
    print(f"explanations cut short by the time limit: {incomplete}")
    for what, times in (("plain grading", plain_ms), ("grading with explanation", explained_ms)):
        print(f"{what}, ms per answer: median {statistics.median(times):.1f}, "
              f"p95 {percentile(times, 0.95):.1f}, max {max(times):.1f}")
    print("categories per mutation:")
    for how, counts in sorted(categories.items()):
        print(f"  {how:40s} " + ", ".join(f"{c} {n}" for c, n in counts.most_common()))
    for line in failures[:20]:
        print("FAILED", line)
    obvious_no()
    return 0 if verified == checked else 1


def obvious_no(sizes: tuple[int, ...] = (500, 2000)) -> None:
    """Seconds to grade, and to grade and explain, a 4-block ground truth against answers with
    thousands of blocks (the object count alone says no): the explanation's cost should follow
    that difficulty, not the 30 s limit."""
    def tower(blocks: list[str]) -> str:
        facts = " ".join(f"(on-table {b}) (clear {b})" for b in blocks)
        goal = " ".join(f"(on {x} {y})" for x, y in zip(blocks[:3], blocks[1:4], strict=True))
        return (f"(define (problem p) (:domain blocksworld) (:objects {' '.join(blocks)})\n"
                f"(:init (arm-empty) {facts})\n(:goal (and {goal})))")

    truth = tower(["b1", "b2", "b3", "b4"])
    for size in sizes:
        answer = tower([f"x{i}" for i in range(size)])
        times = []
        for explain in (False, True):
            start = time.perf_counter()
            result = grade(truth, answer, options=GradeOptions(timeout_s=30.0, explain=explain))
            times.append(time.perf_counter() - start)
        e = result.explanation
        print(f"obvious no, 4 blocks against {size}: grade {times[0]:.2f} s, with explanation "
              f"{times[1]:.2f} s (complete: {e is not None and e.complete}, optimal: "
              f"{e is not None and e.optimal})")


if __name__ == "__main__":
    sys.exit(main())
