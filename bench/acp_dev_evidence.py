"""Evidence for the ACP scorers on the ACPBench (Hard) dev split.

    python bench/acp_dev_evidence.py [DATASET_DIR] [--seconds 20] [--workers 2] [--labels-only]

Prints: how the stored gold, ``None``, an empty answer and garbage score per task; whether
every stored unreachable atom / unreachable action / landmark is confirmed by our certificates
or search (and by which); and whether our own verdict equals the stored gold where that gold is
complete (app, prog, val, nexta's opt).  Then the label check of the yes/no and multiple-choice
questions (``planetarium acp check-labels``): the English reader's verdicts per domain, the
statuses per task and per task and domain, every label found false or ambiguous, and how the
"valid in this problem" labels read under the two possible meanings of "valid".  Nothing is
asserted: this is a measurement.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict

from planetarium.acp.data import as_step, load_items
from planetarium.acp.gen import score_gen
from planetarium.acp.gold import render_gold
from planetarium.acp.grades import outcome
from planetarium.acp.labelreport import check_labels, format_table, reader_lines, summarize
from planetarium.acp.questions import described_action, question_plan, question_task
from planetarium.acp.score import CLOCK, SECONDS, answer_row
from planetarium.errors import PlanetariumError
from planetarium.limits import Deadline, Stopwatch
from planetarium.reasoning import Planner, optimal_cost


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
        return "an applicable action", "(" + " ".join(min(task.applicable_actions())) + ")"
    if item.task == "land":
        return "a goal atom", "(" + " ".join(min(task.problem.goal)) + ")"
    if item.task == "nexta" and item.answer["no"]:
        return "a stored 'no' action", item.answer["no"][0]
    return None


def labels(data: str, seconds: float, workers: int) -> None:
    """The label check of the yes/no and multiple-choice questions, as tables."""
    watch = Stopwatch()
    items = load_items(data)
    known, rows = check_labels(items, seconds, workers=workers)
    elapsed = watch.seconds
    print("\nlabel check: the English reader on the generative records")
    for line in reader_lines(known):
        print("  " + line)
    print(f"\nlabel check: {len(rows)} yes/no and multiple-choice questions in {elapsed:.1f}s "
          f"({workers} worker(s)); slowest {max(r['seconds'] for r in rows):.2f}s")
    print(format_table(summarize(rows, ("kind", "task")), ("kind", "task")))
    print("\nper task and domain")
    print(format_table(summarize(rows, ("task", "domain")), ("task", "domain")))
    for row in rows:
        if row["verdict"] in ("false", "ambiguous") or row["bad_question"]:
            what = "BAD QUESTION" if row["bad_question"] else row["verdict"].upper()
            print(f"  {what}: {row['kind']}/{row['task']} {row['domain']} "
                  f"{row['id']} (label {row['label']}): {row['reason']}")
    unread = Counter(re.sub(r"'.*", "'...'", r["reason"])[:60]
                     for r in rows if r["status"] == "unsupported")
    print("\nunreadable, by reason: " + "; ".join(f"{k} x{v}" for k, v in unread.most_common()))
    # "valid in this problem": every step an action of the task (our reading), or a plan?
    by_id = {(i.kind, i.task, i.id): i for i in items}
    meanings: Counter = Counter()
    for row in rows:
        question = by_id[(row["kind"], row["task"], row["id"])].question
        if row["task"] != "val" or "valid in this problem" not in question:
            continue
        if row["verdict"] not in ("true", "false"):
            meanings["unread"] += 1
            continue
        outcome = row["reason"].split(": ", 2)[1]
        meanings["plan agrees"] += (outcome == "plan") == (row["label"] == "yes")
        meanings["all-actions agrees"] += (outcome != "not valid") == (row["label"] == "yes")
        meanings["read"] += 1
    print("'valid in this problem' labels (read / agreeing if valid = a plan / if valid = every "
          "step an action of the task / unread): " + " / ".join(
              str(meanings[k]) for k in ("read", "plan agrees", "all-actions agrees", "unread")))


def _score(item, response, task=None) -> tuple[str, str]:
    grade = score_gen(item, response, Deadline.start(SECONDS, CLOCK), task=task)
    return outcome(answer_row(item, grade, 0.0)), grade.reason


def generative(data: str, seconds: float) -> None:
    """The generative tasks: gold, degenerate and perturbed answers, stored examples."""
    items = [i for i in load_items(data) if i.kind == "gen"]
    table: dict[str, Counter] = defaultdict(Counter)
    stored: dict[str, Counter] = defaultdict(Counter)
    agree: dict[str, Counter] = defaultdict(Counter)
    perturbed: dict[tuple[str, str], Counter] = defaultdict(Counter)
    refuted: list[str] = []  # stored golds our certificates or searches prove wrong, with proof
    slowest = (0.0, "")
    watch = Stopwatch()
    for item in items:
        task = question_task(item)
        for label, response in (("gold", render_gold(item)), ("None", "None"), ("empty", ""),
                                ("garbage", "lorem ipsum ((")):
            one = Stopwatch()
            word, reason = _score(item, response, task)
            slowest = max(slowest, (one.seconds, f"{item.task} {item.id} {label}"))
            table[(item.task, label)][word] += 1
            if label == "gold" and word == "wrong":
                refuted.append(f"{item.task} {item.id} gold {response}: {reason}")
        change = _perturbed(item, task)
        if change:
            word, reason = _score(item, change[1], task)
            shape = re.sub(r"\d+", "N", re.sub(r"\([^()]*\)", "(..)", reason))[:70]
            perturbed[(item.task, change[0])][f"{word}: {shape}"] += 1
        if item.task in ("reach", "areach"):
            for text in item.answer:
                word, reason = _score(item, "(" + " ".join(as_step(text)) + ")", task)
                stored[item.task][f"{word}:{_method(reason)}"] += 1
        if item.task == "land":
            for key in ("yes", "no"):
                for text in item.answer[key]:
                    step = as_step(text)
                    if step in task.state or step in task.problem.goal:
                        stored[f"land-{key}"]["trivial"] += 1
                        continue
                    word, reason = _score(item, "(" + " ".join(step) + ")", task)
                    stored[f"land-{key}"][f"{word}:{_method(reason)}"] += 1
                    if key == "no" and word == "correct":
                        refuted.append(f"land {item.id} stored non-landmark {text}: {reason}")
        if item.task == "app":
            agree["app"][task.applicable_actions() == {as_step(a) for a in item.answer}] += 1
        if item.task == "prog":
            try:
                described = described_action(task, item.question)
                effects = task.effects(task.state, described)
            except (PlanetariumError, ValueError):
                effects = None
            agree["prog"][effects == ({as_step(a) for a in item.answer["pos"]},
                                      {as_step(a) for a in item.answer["neg"]})] += 1
        if item.task == "val":
            failure = task.run(task.state, question_plan(item.question)).failure
            agree["val"][failure is not None and failure.index == int(item.answer)] += 1
        if item.task == "nexta":
            try:
                cost = optimal_cost(Planner(task), Deadline.start(seconds, CLOCK))
                agree["nexta-opt"][cost == int(item.answer["opt"])] += 1
            except Exception as err:  # noqa: BLE001 - a measurement: count, do not stop
                agree["nexta-opt"][f"undecided ({type(err).__name__})"] += 1
    print(f"{len(items)} questions in {watch.seconds:.1f}s; slowest single "
          f"scoring {slowest[0]:.2f}s ({slowest[1]})\n")
    print(f"stored golds proved wrong ({len(refuted)}), with the proof")
    for line in refuted:
        print("  " + line)
    print()
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default="/work/shared/reference/acpbench/dataset")
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help="CPU seconds per question")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--labels-only", action="store_true")
    args = parser.parse_args()
    if not args.labels_only:
        generative(args.data, args.seconds)
    labels(args.data, args.seconds, args.workers)


if __name__ == "__main__":
    main()
