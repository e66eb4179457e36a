"""A run of synthetic wrong answers built from dataset rows, graded and reported with error
categories — the report's category table and figure on answers whose mistakes are known.

    python bench/bench_explain_report.py --out /tmp/explain-run [--config data/demo.yaml] [--rows 300]

Each row gets one answer: its own ground truth renamed (one in five) or a wrong answer from
:mod:`planetarium.testing.wrong_answers` (the mutation is recorded in ``answers.jsonl`` next to
the run).  The run directory is built like any ``eval run`` output (manifest, items,
completions), graded by ``eval grade``'s code with explanations, and ``eval report`` writes
``OUT/report/report.md`` with ``categories.png``.  Prints the category tables.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from planetarium.benchmarks import get_benchmark
from planetarium.grading import load_ground_truth
from planetarium.llm.config import EvalConfig, make_config
from planetarium.llm.grade import grade_run
from planetarium.llm.report import write_report
from planetarium.llm.runner import COMPLETIONS, prepare_run_dir
from planetarium.llm.store import CompletionLog
from planetarium.pddl.writer import problem_to_pddl
from planetarium.testing.pairs import renamed
from planetarium.testing.wrong_answers import wrong_answers


def run_config(dataset: str) -> EvalConfig:
    """The run's config in the eval config layout: every row of ``dataset``'s configuration
    (``split: [null]``); the model is a name only, as nothing is generated."""
    return make_config({"name": "synthetic-wrong-answers",
                        "model": {"backend": "transformers", "model": "synthetic"},
                        "benchmark": {"name": "planetarium", "dataset": dataset, "split": [None]}})


def synthetic_answers(rows: list[dict], rng: random.Random) -> tuple[list[dict], list[dict]]:
    """One answer per row — its ground truth renamed (one in five) or a known wrong answer —
    as completion records, and the mutation each one got."""
    answers, made = [], []
    for row in rows:
        domain, truth = load_ground_truth(row["problem_pddl"])
        if rng.random() < 0.2:
            how, answer = "renamed", renamed(truth, rng)
        else:
            how, answer = next(wrong_answers(truth, rng, per_problem=1))
        answers.append({"id": str(row["id"]), "output": problem_to_pddl(
            answer, typed=domain.definition.typed)})
        made.append({"id": row["id"], "mutation": how})
    return answers, made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--config", default="data/demo.yaml")
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    # everything that can be refused (the config, the dataset) is checked before OUT is written
    config = run_config(args.config)
    benchmark = get_benchmark(config.benchmark.name)
    rows = benchmark.load_items(config.benchmark)
    rng.shuffle(rows)
    rows = rows[:args.rows]
    answers, made = synthetic_answers(rows, rng)
    out = Path(args.out)
    run_dir = out / "run"
    prepare_run_dir(run_dir, config, benchmark, rows)
    with CompletionLog(run_dir / COMPLETIONS) as log:
        log.append(answers)
    (out / "answers.jsonl").write_text("".join(json.dumps(m) + "\n" for m in made))
    grade_run(run_dir, workers=args.workers, progress=False)
    report = write_report([run_dir], out / "report")
    for table in report.tables:
        if table.name.startswith("categories"):
            print(f"## {table.title}\n\n{table.markdown()}\n")
    print(f"report: {out / 'report' / 'report.md'}, figure: {out / 'report' / 'categories.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
