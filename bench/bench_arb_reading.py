"""How well ARB answers are read: agreement with a careful human, beside ARB's own method.

    python bench/bench_arb_reading.py [FOLDER] [--show N]

FOLDER defaults to ``tests/fixtures/arb_reading`` (hand-written answers to questions this
project renders, each scored by a human before grading; see
:mod:`planetarium.testing.arb_reading`).  Prints, per category and per domain, the share of
answers on which the grader (``arb score``) agrees with the human, and the share on which ARB's
published method does (its true/false keyword rule, dropped answers counted as disagreeing;
an ideal judge for free answers), with the answers ARB's rule drops; then the grader's
disagreements (up to ``--show``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from planetarium.testing.arb_reading import agreement, judge, load_cases

REPO = Path(__file__).resolve().parents[1]


def _table(lines: list[dict], axis: str) -> str:
    head = f"{axis:<22} {'n':>4}  {'grader':>7}  {'ARB method':>10}  {'ARB dropped':>11}"
    body = [f"{line[axis]:<22} {line['n']:>4}  {line['grader']:>7.1%}  {line['arb']:>10.1%}  "
            f"{line['arb_dropped']:>11}" for line in lines]
    return "\n".join([head, "-" * len(head), *body])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(REPO / "tests/fixtures/arb_reading"))
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    cases = load_cases(args.folder)
    start = time.perf_counter()
    judged = judge(cases)
    seconds = time.perf_counter() - start
    print(f"{len(cases)} hand-written answers to {len({c.id for c in cases})} rendered questions "
          f"(graded in {seconds:.1f} s)\n")
    for axis in ("category", "domain"):
        print(_table(agreement(judged, axis), axis) + "\n")
    wrong = [j for j in judged if not j.grader_agrees]
    print(f"grader disagrees with the human on {len(wrong)}:")
    for item in wrong[:args.show]:
        response = item.case.response.replace("\n", " | ")
        print(f"  {item.case.id} human={item.case.human} grader={item.row['score']} "
              f"({item.row['arb_outcome']}: {str(item.row.get('reason', ''))[:90]}) "
              f"[{item.case.note}] {response[:120]}")


if __name__ == "__main__":
    main()
