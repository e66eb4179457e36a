"""The training reward under a GRPO-shaped load: rewards/s, per-item latency, cache hit rate.

    python bench/bench_reward.py [--benchmark planetarium|acpbench|arb] [--prompts 64]
                                 [--group 16] [--steps 5] [--workers 1 2]

Each step is one reward call, as GRPO makes it: ``--prompts`` dataset rows (generated in memory
from ``--config``, default data/reward-bench.yaml: dataset-sized problems, 20-80 propositions)
times ``--group`` completions each, a mix of what models write — the ground truth, renamings,
a wrong goal, a wrong initial state, fenced, ``<think>``-prefixed and chat-message answers,
garbage and one huge output.  Solvability is checked (the reward's default).  Printed per worker
count: rewards/s over the steps after the first (the first also starts the workers; shown
apart), the CPU time per reward (parent and workers: a figure other jobs on the machine inflate
far less than wall time), per-item grading latency p50 / p99 / max (where the item ran), the
same without the huge outputs, the cache hit rate, and the mean reward per kind of completion
as a sanity check.

``--benchmark acpbench`` / ``arb``: the prompts are the published records of the test fixtures
(ACPBench and ACPBench Hard generative questions; ARB's blocksworld questions), passed as
JSON text in the ``item`` column, and the group mixes the gold answer, another question's gold
(wrong) and no answer; the time limit counts CPU seconds there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from bench_grading import percentile  # the benches' one percentile (run as scripts)

from planetarium.acp.data import item_from_record
from planetarium.acp.gold import render_gold
from planetarium.dataset import load_rows
from planetarium.domains import get_domain
from planetarium.grading import load_ground_truth
from planetarium.pddl.writer import problem_to_pddl
from planetarium.reward import PlanetariumReward
from planetarium.testing.pairs import near_miss, render

ROOT = Path(__file__).resolve().parent.parent
#: Completion kinds of one group of 16 (``--group`` cycles through them).
KINDS = ("correct", "renamed", "renamed", "renamed", "wrong-goal", "wrong-goal", "wrong-init",
         "wrong-init", "fenced", "fenced", "think", "think", "chat", "renamed", "garbage", "huge")
#: Rows per domain in one step's prompts (the published dataset's domains).
DOMAIN_SHARE = {"blocksworld": 0.45, "gripper": 0.25, "floor-tile": 0.30}


def completion(kind: str, problem, gt: str, rng: random.Random):
    typed = get_domain(problem.domain).definition.typed
    if kind == "correct":
        return gt
    if kind == "renamed":
        return render(problem, rng, typed=typed)
    if kind == "wrong-goal":
        return problem_to_pddl(near_miss(problem, rng), typed=typed)
    if kind == "wrong-init":
        init = sorted(problem.init)
        init.pop(rng.randrange(len(init)))
        return problem_to_pddl(replace(problem, init=frozenset(init)), typed=typed)
    if kind == "fenced":
        return f"Sure, here is the problem:\n```pddl\n{render(problem, rng, typed=typed)}\n```\n"
    if kind == "think":
        return (f"<think>The goal mentions {len(problem.goal)} facts. A first try: (define "
                f"(problem draft) (:domain x)) ... no.</think>\n{render(problem, rng, typed=typed)}")
    if kind == "chat":
        return [{"role": "assistant", "content": render(problem, rng, typed=typed)}]
    if kind == "garbage":
        return "".join(rng.choice("()abc :-?\n") for _ in range(rng.randint(20, 400)))
    if kind == "huge":
        return "Let me restate the task. " * 20_000 + render(problem, rng, typed=typed)
    raise ValueError(kind)


def pick_prompts(rows: list[dict], n: int, rng: random.Random) -> list[dict]:
    by_domain = defaultdict(list)
    for row in rows:
        if row["domain"] in DOMAIN_SHARE and row["goal_num_propositions"] + \
                row["init_num_propositions"] >= 20:
            by_domain[row["domain"]].append(row)
    chosen = []
    for domain, share in DOMAIN_SHARE.items():
        k = round(n * share) if domain != "floor-tile" else n - len(chosen)
        chosen += rng.sample(by_domain[domain], min(k, len(by_domain[domain])))
    return chosen


def make_step(rows: list[dict], prompts: int, group: int, rng: random.Random) -> dict:
    completions, truths, flags, kinds = [], [], [], []
    for row in pick_prompts(rows, prompts, rng):
        _, problem = load_ground_truth(row["problem_pddl"])
        for i in range(group):
            kind = KINDS[i % len(KINDS)]
            completions.append(completion(kind, problem, row["problem_pddl"], rng))
            truths.append(row["problem_pddl"])
            flags.append(row["is_placeholder"])
            kinds.append(kind)
    return {"completions": completions,
            "columns": {"problem_pddl": truths, "is_placeholder": flags}, "kinds": kinds}


def record_answers(benchmark: str, record: dict, other: dict) -> list[tuple[str, str]]:
    """(kind, answer) for one published record: its gold, another's gold, and no answer."""
    if benchmark == "acpbench":
        gold, wrong = (render_gold(item_from_record(r, "fixture")) for r in (record, other))
    else:
        gold, wrong = f"[ANSWER]\n{record['answer']}", f"[ANSWER]\n{other['answer']}"
    return [("correct", gold), ("other-gold", wrong), ("garbage", "I do not know.")]


def fixture_records(benchmark: str) -> list[dict]:
    fixtures = ROOT / "tests" / "fixtures"
    if benchmark == "acpbench":
        files = sorted((fixtures / "acp-hard").glob("*/test.gen.json"))
        files += sorted((fixtures / "acp").glob("*/dev.gen.json"))
        return [r for path in files for r in json.loads(path.read_text())]
    lines = (fixtures / "arb" / "blocksworld-2024.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def make_record_step(benchmark: str, records: list[dict], prompts: int, group: int,
                     rng: random.Random) -> dict:
    completions, items, kinds = [], [], []
    for record in rng.sample(records, min(prompts, len(records))):
        answers = record_answers(benchmark, record, rng.choice(records))
        for i in range(group):
            kind, answer = answers[i % len(answers)]
            completions.append(answer)
            items.append(json.dumps(record))
            kinds.append(kind)
    return {"completions": completions, "columns": {"item": items}, "kinds": kinds}


def cpu_seconds(reward: PlanetariumReward) -> float:
    """CPU time used so far by this process and the reward's live workers (Linux /proc)."""
    total = time.process_time()
    for worker in reward._loop.pool.workers if reward._loop else ():
        try:
            fields = Path(f"/proc/{worker.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def run(benchmark: str, workers: int, steps: list[dict]) -> None:
    with PlanetariumReward(benchmark=benchmark, workers=workers, timeout_s=5.0) as reward:
        walls, cpus, latencies, plain, by_kind = [], [], [], [], defaultdict(list)
        for number, step in enumerate(steps):
            cpu, start = cpu_seconds(reward), time.perf_counter()
            rewards = reward(prompts=None, completions=step["completions"], **step["columns"])
            wall = time.perf_counter() - start
            if number == 0:
                first = wall
                continue
            walls.append(wall)
            cpus.append(cpu_seconds(reward) - cpu)
            for kind, value, detail in zip(step["kinds"], rewards, reward.last_details, strict=True):
                by_kind[kind].append(value)
                if detail["seconds"] is not None:
                    latencies.append(detail["seconds"])
                    if kind != "huge":
                        plain.append(detail["seconds"])
        metrics = reward.metrics()
    items = sum(len(s["completions"]) for s in steps[1:])
    rates = [len(s["completions"]) / w for s, w in zip(steps[1:], walls, strict=True)]
    print(f"\n== {benchmark}, {workers} worker(s): {len(steps) - 1} steps of {len(steps[0]['completions'])} "
          f"completions (first step, starting the workers: {first:.2f} s)")
    print(f"rewards/s     {items / sum(walls):8.0f}   (per step {min(rates):.0f} .. {max(rates):.0f})")
    print(f"CPU per reward {sum(cpus) / items * 1e3:6.2f} ms (parent and workers): "
          f"{items / sum(cpus):.0f} rewards per CPU-second, whatever else loads the machine")
    for name, values in (("all items", latencies), ("without huge", plain)):
        print(f"latency {name:13s} p50 {percentile(values, 0.5) * 1e3:6.2f} ms   p99 "
              f"{percentile(values, 0.99) * 1e3:6.2f} ms   max {max(values) * 1e3:7.2f} ms")
    print(f"cache hit rate {metrics['cache_hit_rate']:.3f}   timeouts {metrics['timeouts']}   "
          f"internal errors {metrics['internal_errors']}   workers replaced "
          f"{metrics['workers_replaced']}")
    print("mean reward    " + "  ".join(f"{kind} {statistics.mean(v):.2f}"
                                        for kind, v in sorted(by_kind.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", default="planetarium",
                        choices=("planetarium", "acpbench", "arb"))
    parser.add_argument("--config", default=str(ROOT / "data" / "reward-bench.yaml"),
                        help="Planetarium's rows (the other benchmarks use the test fixtures)")
    parser.add_argument("--prompts", type=int, default=64)
    parser.add_argument("--group", type=int, default=16)
    parser.add_argument("--steps", type=int, default=5, help="timed steps (one more starts up)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    rng = random.Random(args.seed)
    if args.benchmark == "planetarium":
        rows = load_rows(args.config)
        steps = [make_step(rows, args.prompts, args.group, rng) for _ in range(args.steps + 1)]
        source = f"{len(rows)} rows from {args.config}"
    else:
        records = fixture_records(args.benchmark)
        steps = [make_record_step(args.benchmark, records, args.prompts, args.group, rng)
                 for _ in range(args.steps + 1)]
        source = f"{len(records)} {args.benchmark} records from tests/fixtures"
    print(f"{source}; {args.steps + 1} steps built in {time.perf_counter() - start:.1f} s")
    for workers in args.workers:
        run(args.benchmark, workers, steps)


if __name__ == "__main__":
    main()
