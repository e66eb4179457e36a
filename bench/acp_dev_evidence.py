"""Evidence for the ACP scorers on the ACPBench Hard dev split (all eight generative tasks).

    python bench/acp_dev_evidence.py [DATASET_DIR] [--seconds 5]

Prints: how the stored gold, ``None``, an empty answer and garbage score per task; whether
every stored unreachable atom / unreachable action / landmark is confirmed by our certificates
or search (and by which); and whether our own verdict equals the stored gold where that gold is
complete (app, prog, val, nexta's opt).  Nothing is asserted: this is a measurement.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from planetarium.acp.data import load_items
from planetarium.acp.gen import optimal_cost, score_gen
from planetarium.acp.gold import as_step, render_gold
from planetarium.acp.model import AcpTask, Budget
from planetarium.acp.questions import described_action, question_plan
from planetarium.strips.validate import validate_plan


def _method(reason: str) -> str:
    for key in ("delete-relaxed", "h^2", "exhaustive", "plan of", "reachable"):
        if key in reason:
            return key
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default="/work/shared/reference/acpbench/dataset")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    budget = Budget(seconds=args.seconds)
    items = [i for i in load_items(args.data) if i.kind == "gen"]
    table: dict[str, Counter] = defaultdict(Counter)
    stored: dict[str, Counter] = defaultdict(Counter)
    agree: dict[str, Counter] = defaultdict(Counter)
    slowest = (0.0, "")
    start = time.perf_counter()
    for item in items:
        task = AcpTask.from_item(item, budget)
        for label, response in (("gold", render_gold(item)), ("None", "None"), ("empty", ""),
                                ("garbage", "lorem ipsum ((")):
            t0 = time.perf_counter()
            verdict = score_gen(item, response, task)
            slowest = max(slowest, (time.perf_counter() - t0, f"{item.task} {item.id} {label}"))
            table[(item.task, label)][verdict.status] += 1
        if item.task in ("reach", "areach"):
            for text in item.answer:
                verdict = score_gen(item, "(" + " ".join(as_step(text)) + ")", task)
                stored[item.task][f"{verdict.status}:{_method(verdict.reason)}"] += 1
        if item.task == "land":
            for key in ("yes", "no"):
                for text in item.answer[key]:
                    step = as_step(text)
                    if step in task.state or step in task.problem.goal:
                        stored[f"land-{key}"]["trivial"] += 1
                        continue
                    verdict = score_gen(item, "(" + " ".join(step) + ")", task)
                    stored[f"land-{key}"][f"{verdict.status}:{_method(verdict.reason)}"] += 1
        if item.task == "app":
            agree["app"][task.applicable() == {as_step(a) for a in item.answer}] += 1
        if item.task == "prog":
            step, _ = described_action(task, item.question)
            effects = task.effects(step) if step else None
            agree["prog"][effects == ({as_step(a) for a in item.answer["pos"]},
                                      {as_step(a) for a in item.answer["neg"]})] += 1
        if item.task == "val":
            result = validate_plan(task.domain, task.problem, question_plan(item.question))
            agree["val"][result.step == int(item.answer)] += 1
        if item.task == "nexta":
            task.cache["deadline"] = time.monotonic() + args.seconds
            try:
                agree["nexta-opt"][optimal_cost(task) == int(item.answer["opt"])] += 1
            except Exception as err:  # noqa: BLE001 - a measurement: count, do not stop
                agree["nexta-opt"][f"undecided ({type(err).__name__})"] += 1
    print(f"{len(items)} questions in {time.perf_counter() - start:.1f}s; slowest single "
          f"scoring {slowest[0]:.2f}s ({slowest[1]})\n")
    print("score status per task and response (counts)")
    for (task, label), counts in sorted(table.items()):
        print(f"  {task:7} {label:8} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    print("\nstored examples re-checked (status:method)")
    for key, counts in sorted(stored.items()):
        print(f"  {key:8} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    print("\nour verdict equals the stored gold")
    for key, counts in sorted(agree.items()):
        print(f"  {key:9} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items(), key=str)))


if __name__ == "__main__":
    main()
