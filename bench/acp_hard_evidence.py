"""Are landmark questions on large satellite problems decided within the default budget?

    python bench/acp_hard_evidence.py [REFERENCE_DIR] [--seeds 3] [--answers 12]

ACPBench Hard's hidden test split left three satellite landmark questions undecided ("generic
search gave up after 200000 states").  This script writes random satellite problems of growing
size (satellites x instruments per satellite x modes x directions x images to take), walks a few
random steps from the initial state to make the current state, and grades ``None`` and a sample
of the non-trivial fluent atoms as landmark answers with ``acp.score.grade_answer`` under the
default deadline (20 CPU seconds).  It prints, per size, how many answers were decided, how
many timed out, and the slowest CPU time.  Nothing is asserted: this is a measurement.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from planetarium.acp.data import AcpItem
from planetarium.acp.questions import question_task
from planetarium.acp.score import CLOCK, SECONDS, grade_answer
from planetarium.grading import Status
from planetarium.limits import Deadline

SIZES = [(2, 2, 3, 10, 6), (3, 2, 3, 12, 8), (4, 3, 4, 20, 12), (5, 3, 5, 30, 20)]


def _problem(rng: random.Random, sats: int, per: int, modes: int, dirs: int,
             images: int) -> str:
    directions = [f"dir{i}" for i in range(dirs)]
    instruments, init = [], []
    for s in range(sats):
        for _ in range(per):
            inst = f"inst{len(instruments)}"
            instruments.append(inst)
            init += [f"(on_board {inst} sat{s})", f"(calibration_target {inst} "
                                                  f"{rng.choice(directions)})"]
            init += [f"(supports {inst} mode{m})" for m in rng.sample(range(modes), 2)]
        init += [f"(power_avail sat{s})", f"(pointing sat{s} {rng.choice(directions)})"]
    supported = sorted({a.split()[2].rstrip(")") for a in init if a.startswith("(supports")})
    goal = sorted({f"(have_image {rng.choice(directions)} {rng.choice(supported)})"
                   for _ in range(images)})
    objects = (" ".join(directions) + " - direction " + " ".join(instruments) + " - instrument "
               + " ".join(f"mode{m}" for m in range(modes)) + " - mode "
               + " ".join(f"sat{s}" for s in range(sats)) + " - satellite")
    return (f"(define (problem p) (:domain satellite) (:objects {objects}) "
            f"(:init {' '.join(init)}) (:goal (and {' '.join(goal)})))")


def _item(domain: str, problem: str) -> AcpItem:
    return AcpItem(id="x", task="land", kind="gen", group="landmarks_gen", context="",
                   question="", answer={"yes": [], "no": []}, domain_pddl=domain,
                   problem_pddl=problem)


def _walked(domain: str, problem: str, rng: random.Random, steps: int) -> AcpItem:
    """The question whose current state is ``steps`` random actions from ``problem``'s."""
    task = question_task(_item(domain, problem))
    state = task.state
    for _ in range(steps):
        state = task.progress(state, rng.choice(sorted(task.applicable_actions(state))))
    facts = " ".join("(" + " ".join(a) + ")" for a in sorted(state))
    head, rest = problem.split("(:init ", 1)
    return _item(domain, head + f"(:init {facts}) (:goal" + rest.split(") (:goal", 1)[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("reference", nargs="?", default="/work/shared/reference/acpbench")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--answers", type=int, default=12)
    args = parser.parse_args()
    domain = (Path(args.reference) / "test-domains" / "satellite.pddl").read_text()
    for size in SIZES:
        decided = timeouts = total = 0
        slowest = 0.0
        for seed in range(args.seeds):
            rng = random.Random(seed)
            item = _walked(domain, _problem(rng, *size), rng, 6)
            task = question_task(item)
            atoms = sorted(a for a in task.relaxed()[1] - task.state - task.goal
                           if a[0] in task.fluents)
            answers = ["None"] + ["(" + " ".join(a) + ")"
                                  for a in rng.sample(atoms, min(len(atoms), args.answers))]
            for answer in answers:
                start = time.process_time()
                grade = grade_answer(item, answer, Deadline.start(SECONDS, CLOCK))
                slowest = max(slowest, time.process_time() - start)
                total += 1
                decided += grade.status is Status.DECIDED
                timeouts += grade.status is Status.TIMEOUT
        print(f"satellites x instruments x modes x directions x images {size}: {total} answers, "
              f"{decided} decided, {timeouts} timeout, slowest {slowest:.2f} s of CPU")


if __name__ == "__main__":
    main()
