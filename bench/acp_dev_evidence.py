"""Evidence for the ACP scorers on the ACPBench Hard dev split (all eight generative tasks).

    python bench/acp_dev_evidence.py [DATASET_DIR] [--seconds 5]

Prints: how the stored gold, ``None``, an empty answer and garbage score per task; whether
every stored unreachable atom / unreachable action / landmark is confirmed by our certificates
or search (and by which); and whether our own verdict equals the stored gold where that gold is
complete (app, prog, val, nexta's opt).  Nothing is asserted: this is a measurement.
"""

from __future__ import annotations

import argparse
import re
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


def _perturbed(item, task) -> tuple[str, str] | None:
    """One answer off by one action or atom from the gold, and what was changed."""
    if item.task == "app":
        steps = [as_step(a) for a in item.answer]
        return "drop one action", "[" + ", ".join("(" + " ".join(s) + ")" for s in steps[1:]) + "]"
    if item.task == "prog":
        pos, neg = item.answer["pos"], item.answer["neg"]
        return "drop one positive effect", f"[{', '.join(pos[1:])}] [{', '.join(neg)}]"
    if item.task == "val":
        return "index + 1", str(int(item.answer) + 1)
    if item.task == "just":
        plan = question_plan(item.question)
        return "plan unchanged", " ".join("(" + " ".join(s) + ")" for s in plan)
    if item.task == "reach":
        atom = min(a for a in task.state if a[0] in task.fluents)
        return "an atom of the current state", "(" + " ".join(atom) + ")"
    if item.task == "areach":
        return "an applicable action", "(" + " ".join(min(task.applicable())) + ")"
    if item.task == "land":
        return "a goal atom", "(" + " ".join(min(task.problem.goal)) + ")"
    if item.task == "nexta" and item.answer["no"]:
        return "a stored 'no' action", item.answer["no"][0]
    return None


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
    perturbed: dict[tuple[str, str], Counter] = defaultdict(Counter)
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
        change = _perturbed(item, task)
        if change:
            verdict = score_gen(item, change[1], task)
            shape = re.sub(r"\d+", "N", re.sub(r"\([^()]*\)", "(..)", verdict.reason))[:70]
            perturbed[(item.task, change[0])][f"{verdict.status}: {shape}"] += 1
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
    print("\none-action/atom perturbations of the gold (status: start of the reason)")
    for (task, what), counts in sorted(perturbed.items()):
        print(f"  {task:7} {what}: " + "; ".join(f"{k} x{v}" for k, v in counts.most_common(4)))
    print("\nstored examples re-checked (status:method)")
    for key, counts in sorted(stored.items()):
        print(f"  {key:8} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    print("\nour verdict equals the stored gold")
    for key, counts in sorted(agree.items()):
        print(f"  {key:9} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items(), key=str)))


if __name__ == "__main__":
    main()
