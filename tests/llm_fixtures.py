"""Shared helpers for the evaluation-loop tests: dataset rows built from real PDDL, a tiny model.

Rows follow the dataset contract (CONTRACTS.md) so the runner, grader and report see exactly
what ``planetarium.dataset.load_rows`` gives them; the PDDL is the standard untyped blocksworld
and gripper the Planetarium dataset uses.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

from planetarium.llm.scripted import ChatServer  # noqa: F401 - the tests' endpoint is the shipped one


def _problem(name: str, domain: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    return (
        f"(define (problem {name})\n  (:domain {domain})\n  (:requirements :strips)\n"
        f"  (:objects {' '.join(objects)})\n  (:init {' '.join(init)})\n"
        f"  (:goal (and {' '.join(goal)})))\n"
    )


def _row(rid: str, domain: str, text: str, objects: list, init: list, goal: list,
         abstract: tuple[bool, bool], split: str) -> dict[str, Any]:
    """A dataset row (CONTRACTS.md fields) around a problem written from its atoms."""
    return {
        "id": rid,
        "name": rid,
        "domain": domain,
        "init": " ".join(init),
        "goal": " ".join(goal),
        "num_objects": len(objects),
        "problem_pddl": _problem(rid, domain, objects, init, goal),
        "natural_language": text,
        "init_is_abstract": abstract[0],
        "init_num_propositions": len(init),
        "goal_is_abstract": abstract[1],
        "goal_num_propositions": len(goal),
        "is_placeholder": False,
        "split_random": split,
        "split_heldout": split,
    }


def blocksworld_row(index: int, n_blocks: int, split: str = "test") -> dict[str, Any]:
    """All blocks on the table, goal: one tower b1 on b2 on ... on bn."""
    blocks = [f"b{i}" for i in range(1, n_blocks + 1)]
    init = ["(arm-empty)"] + [f"(on-table {b})" for b in blocks] + [f"(clear {b})" for b in blocks]
    goal = [f"(on {upper} {lower})" for upper, lower in pairwise(blocks)]
    text = (
        f"You have {n_blocks} blocks, {', '.join(blocks)}, each on the table and clear; "
        f"the arm is empty. Your goal is a single tower with {blocks[0]} on top, "
        f"each block on the next one in order."
    )
    abstract = (False, index % 2 == 1)
    rid = f"blocksworld-{index:03d}"
    return _row(rid, "blocksworld", text, blocks, init, goal, abstract, split)


def gripper_row(index: int, n_balls: int, split: str = "test") -> dict[str, Any]:
    """Two rooms, all balls in room1, the goal moves them all to room2."""
    balls = [f"ball{i}" for i in range(1, n_balls + 1)]
    objects = ["room1", "room2", *balls, "gripper1", "gripper2"]
    init = ["(room room1)", "(room room2)", "(at-robby room1)"]
    init += [f"(ball {b})" for b in balls] + [f"(at {b} room1)" for b in balls]
    init += ["(gripper gripper1)", "(gripper gripper2)", "(free gripper1)", "(free gripper2)"]
    goal = [f"(at {b} room2)" for b in balls]
    text = (
        f"You have 2 rooms, {n_balls} balls and 2 free grippers. The robby and every ball are "
        f"in room1. Your goal is to move all balls to room2."
    )
    abstract = (index % 2 == 1, False)
    return _row(f"gripper-{index:03d}", "gripper", text, objects, init, goal, abstract, split)


def demo_rows(n: int = 12) -> list[dict[str, Any]]:
    """``n`` rows alternating domains, sizes spread over several proposition bins."""
    rows = []
    for index in range(n):
        if index % 2 == 0:
            rows.append(blocksworld_row(index, 2 + index % 7))
        else:
            rows.append(gripper_row(index, 1 + index % 9))
    return rows


def write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


#: Keys of the ``benchmark:`` section; every other field of :func:`sections` is the model's.
BENCHMARK_KEYS = ("benchmark", "dataset", "split", "limit", "sample_per_domain", "seed",
                  "timeout_s", "tasks")


def sections(name: str, **fields: Any) -> dict[str, Any]:
    """An eval config mapping in its two sections from one flat list of keyword fields (tests
    name what they vary; ``benchmark`` names the benchmark, default planetarium)."""
    bench = {k: v for k, v in fields.items() if k in BENCHMARK_KEYS}
    model = {k: v for k, v in fields.items() if k not in BENCHMARK_KEYS}
    return {"name": name, "model": {"backend": "transformers", "model": "m", **model},
            "benchmark": {"name": bench.pop("benchmark", "planetarium"), "split": [None], **bench}}


def write_eval_config(tmp_path: Path, n_rows: int, **fields: Any) -> Path:
    """An eval YAML over ``n_rows`` demo rows written next to it; ``fields`` fill the config."""
    import yaml

    rows = write_rows(tmp_path / "rows.jsonl", demo_rows(n_rows))
    path = tmp_path / "tiny-test.yaml"
    path.write_text(yaml.safe_dump(sections("tiny-test", dataset=str(rows), **fields)))
    return path


def eval_run_argv(config: Path, out: Path, *extra: str) -> list[str]:
    """``eval run`` arguments after the program name (for click's CliRunner or a subprocess)."""
    return ["eval", "run", "--config", str(config), "--out", str(out), *extra]


def typed_variant(pddl: str) -> str:
    """The problem with every object typed ``- item``: wrong under strict typing only."""
    start = pddl.index("(:objects ") + len("(:objects ")
    end = pddl.index(")", start)
    objects = " ".join(f"{name} - item" for name in pddl[start:end].split())
    return pddl[:start] + objects + pddl[end:]


def known_answers(rows: list[dict[str, Any]]) -> list[str]:
    """Per row, in turn: correct, typed (wrong only when typing is strict), fenced correct,
    garbage; so strict typing passes 1/2 of the rows and relaxed typing 3/4."""
    kinds = [
        lambda gt: gt,
        typed_variant,
        lambda gt: f"Here is the problem:\n```pddl\n{gt}```\nHope this helps!",
        lambda gt: "(define (problem oops",
    ]
    return [kinds[i % 4](row["problem_pddl"]) for i, row in enumerate(rows)]


def make_answered_run(run_dir: Path, name: str, rows: list[dict[str, Any]], answers: list[str],
                      **fields: Any) -> None:
    """A run directory whose completions are ``answers`` (one per row, in order; fewer leave
    rows unanswered), ready to grade; ``fields`` fill or override the eval config."""
    from planetarium.benchmarks import get_benchmark
    from planetarium.llm.config import make_config
    from planetarium.llm.runner import COMPLETIONS, prepare_run_dir
    from planetarium.llm.store import CompletionLog

    config = make_config(sections(name, **{"dataset": "rows.jsonl", **fields}))
    prepare_run_dir(run_dir, config, get_benchmark(config.benchmark.name), rows)
    with CompletionLog(run_dir / COMPLETIONS) as log:
        log.append([{"id": r["id"], "output": a} for r, a in zip(rows, answers, strict=False)])


def one_row_per_domain(path: Path) -> Path:
    """The first held-out test row of each domain of data/demo.yaml (generated in memory)."""
    from planetarium.dataset import load_rows

    rows: dict[str, dict[str, Any]] = {}
    for row in load_rows(Path(__file__).resolve().parents[1] / "data" / "demo.yaml", "heldout:test"):
        rows.setdefault(row["domain"], row)
    return write_rows(path, list(rows.values()))


def our_answers_and_verdicts(tmp_path: Path, model: Path, rows: Path,
                             max_new_tokens: int) -> dict[str, tuple[str, dict[str, Any]]]:
    """``eval run`` + ``eval grade`` with greedy decoding, one prompt per batch (the adapters'
    runs pad nothing either): per item id, the answer and the shared verdict."""
    import yaml
    from click.testing import CliRunner

    from planetarium.cli import main
    from planetarium.llm.store import read_jsonl

    config = tmp_path / "ours.yaml"
    config.write_text(yaml.safe_dump(sections(
        "ours", model=str(model), device="cpu", dtype="float32", batch_size=1,
        max_new_tokens=max_new_tokens, temperature=0.0, dataset=str(rows))))
    run = tmp_path / "ours"
    for argv in (eval_run_argv(config, run), ["eval", "grade", str(run), "--workers", "1"]):
        done = CliRunner().invoke(main, argv)
        assert done.exit_code == 0, done.output
    answers = {r["id"]: r["output"] for r in read_jsonl(run / "completions.jsonl")}
    return {v["id"]: (answers[v["id"]], v) for v in read_jsonl(run / "verdicts.jsonl")}


#: The adapters' metrics (the stage chain) and the answer length of their runs on the tiny model.
ADAPTER_METRICS = ("parseable", "solvable", "correct")
ADAPTER_MAX_NEW_TOKENS = 8


def adapter_metrics(verdict: dict[str, Any]) -> dict[str, int]:
    """A shared-schema verdict as the adapters report it: 1 or 0 per metric."""
    return {metric: int(verdict["metrics"][metric] is True) for metric in ADAPTER_METRICS}


def offline_env(*paths: Path, checkout: bool = True, **extra: str) -> dict[str, str]:
    """The environment of a framework's CLI run: offline, one thread, this checkout (and
    ``paths``) importable.

    ``checkout=False`` leaves the checkout off ``PYTHONPATH`` (the installed package is then
    imported): an editable install's ``planetarium.egg-info`` in the checkout would otherwise
    shadow the installed metadata, and Inspect then registers our task without its package
    prefix."""
    import os

    repo = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([*map(str, paths), *([str(repo)] if checkout else []),
                            os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": path,
            **extra}
