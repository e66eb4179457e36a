"""Benchmarks are plug-ins of one evaluation loop.

A toy benchmark from outside the package (tests/toy_benchmark/toy_arith.py, 60 lines) is made
known the way an installed package would do it (an entry point in a dist-info directory on the
path: no pip, no network) and runs through ``eval run / grade / report`` with the tiny local
model; ACPBench runs through the very same commands from its own config, and its results carry
the shared status.  The conformance kit is exercised on all three benchmarks and on the
transformers backend.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from llm_fixtures import demo_rows, make_answered_run, write_rows

from planetarium.acp.data import AcpDataError, load_items
from planetarium.acp.score import grade_item
from planetarium.benchmarks import (
    available_benchmarks,
    get_benchmark,
    register_benchmark,
    unregister_benchmark,
)
from planetarium.benchmarks.acpbench import find_prompts
from planetarium.cli import main
from planetarium.config import build
from planetarium.grading import Status
from planetarium.llm.backends import get_backend
from planetarium.llm.config import load_config, make_config
from planetarium.llm.report import build_report
from planetarium.llm.store import read_jsonl
from planetarium.testing.extensions import check_backend, check_benchmark

REPO = Path(__file__).resolve().parents[1]
TOY_DIR = Path(__file__).parent / "toy_benchmark"
ACP = Path(__file__).parent / "fixtures" / "acp"
STATUSES = {status.value for status in Status}


def _cli(env: dict[str, str], *argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "planetarium.cli", *map(str, argv)], env=env,
                          capture_output=True, text=True, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_toy_benchmark_from_outside_runs_through_eval_run_grade_report(tmp_path, tiny_model):
    dist = tmp_path / "toy_arith-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-arith\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[planetarium.benchmarks]\ntoy-arith = toy_arith:BENCHMARK\n")
    rows = [{"id": f"q{i}", "a": 7 * i, "b": 50 + i} for i in range(5)]
    (tmp_path / "sums.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "toy.yaml"
    config.write_text(yaml.safe_dump({
        "name": "toy", "model": {"backend": "transformers", "model": str(tiny_model),
                                 "device": "cpu", "max_new_tokens": 4},
        "benchmark": {"name": "toy-arith", "dataset": str(tmp_path / "sums.jsonl")}}))
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), str(TOY_DIR), str(REPO), os.environ.get("PYTHONPATH", "")])}
    run = tmp_path / "run"
    assert "5 items, 0 already done, 5 generated" in _cli(env, "eval", "run", "--config", config,
                                                           "--out", run)
    assert "toy-arith: n=5: parseable" in _cli(env, "eval", "grade", run, "--workers", "1")
    report = _cli(env, "eval", "report", run)
    assert "# Planetarium evaluation report: toy-arith" in report
    assert "## Overall (toy-arith)" in report and "| toy | 5 |" in report
    assert "## By size (toy-arith)" in (run / "report" / "report.md").read_text()
    verdicts = read_jsonl(run / "verdicts.jsonl")
    assert [v["id"] for v in verdicts] == [r["id"] for r in rows]
    assert {v["status"] for v in verdicts} == {"decided"}
    assert all(v["groups"]["size"] in ("small", "large") for v in verdicts)


def test_acpbench_runs_through_the_same_commands_with_the_shared_status(tmp_path, tiny_model):
    runner, run = CliRunner(), tmp_path / "run"
    argv = ["eval", "run", "--config", str(REPO / "eval" / "tiny-acpbench.yaml"), "--out", str(run),
            "--set", f"model.model={tiny_model}", "--set", f"benchmark.dataset={ACP / 'land'}",
            "--set", f"benchmark.prompts={ACP / 'configs'}", "--set", "benchmark.kinds=[bool, mcq, gen]"]
    first = runner.invoke(main, [*argv, "--limit", "3"])
    assert first.exit_code == 0, first.output
    assert "3 items, 0 already done, 3 generated" in first.output
    again = runner.invoke(main, [*argv, "--limit", "3"])
    assert "3 items, 3 already done, 0 generated" in again.output
    graded = runner.invoke(main, ["eval", "grade", str(run), "--timeout", "5"])
    assert graded.exit_code == 0 and "acpbench: n=3:" in graded.output, graded.output
    results = json.loads((run / "results.json").read_text())
    assert results["benchmark"] == "acpbench" and results["overall"]["n"] == 3
    assert set(results["overall"]["statuses"]) <= STATUSES
    items = {f"{i.kind}/{i.task}/{i.id}": i for i in load_items(ACP / "land")}
    answers = {r["id"]: r["output"] for r in read_jsonl(run / "completions.jsonl")}
    for verdict in read_jsonl(run / "verdicts.jsonl"):
        assert verdict["status"] in STATUSES
        direct = grade_item(items[verdict["id"]], answers[verdict["id"]])
        assert (verdict["acp_status"], verdict["score"]) == (direct["status"], direct["score"])
        assert verdict["correct"] == (None if direct["score"] is None else direct["score"] == 1.0)
    reported = runner.invoke(main, ["eval", "report", str(run)])
    assert reported.exit_code == 0 and "## Overall (acpbench)" in reported.output
    assert "By kind × task" in (run / "report" / "report.md").read_text()
    empty = runner.invoke(main, [*argv, "--set", "benchmark.split=[test]", "--out",
                                 str(tmp_path / "empty")])  # the fixtures hold dev files only
    assert empty.exit_code == 1 and "benchmark: no acpbench items in" in empty.output
    assert not (tmp_path / "empty").exists()


@pytest.fixture
def toy(monkeypatch):
    """The toy module, importable; registered at run time for this test only."""
    monkeypatch.syspath_prepend(str(TOY_DIR))
    import toy_arith

    register_benchmark(toy_arith.BENCHMARK)
    yield toy_arith
    unregister_benchmark(toy_arith.BENCHMARK.name)


def test_runs_of_different_benchmarks_are_not_reported_together(tmp_path, toy):
    make_answered_run(tmp_path / "p", "p", demo_rows(2), ["x", "y"])
    make_answered_run(tmp_path / "t", "t", [{"id": "1", "a": 1, "b": 2}], ["3"],
                      benchmark="toy-arith")
    for run in ("p", "t"):
        result = CliRunner().invoke(main, ["eval", "grade", str(tmp_path / run), "--workers", "1",
                                           "--no-progress"])
        assert result.exit_code == 0, result.output
    with pytest.raises(ValueError, match="different benchmarks"):
        build_report([tmp_path / "p", tmp_path / "t"])


def test_builtin_benchmarks_conform(tmp_path):
    rows = write_rows(tmp_path / "rows.jsonl", demo_rows(4))
    assert {"planetarium", "acpbench"} <= set(available_benchmarks())
    planetarium = get_benchmark("planetarium")
    config = build(planetarium.config_type, {"name": "planetarium", "dataset": str(rows),
                                             "split": [None]})
    assert check_benchmark(planetarium, config, max_items=2, timeout_s=2.0) == []
    acp = get_benchmark("acpbench")
    config = build(acp.config_type, {"name": "acpbench", "dataset": str(ACP / "prog"),
                                     "split": ["dev"], "prompts": str(ACP / "configs")})
    assert check_benchmark(acp, config, max_items=6, timeout_s=2.0) == []


def test_the_kit_finds_a_benchmark_that_breaks_the_loop(tmp_path, toy):
    class Sloppy(toy.ToyArith):
        name = "sloppy"
        metrics = ("correct",)

        def grade(self, config, item, answer, deadline, **kwargs):
            if "(" * 1000 in answer:
                raise RecursionError("nested too deep")
            if answer == "":  # answers the wrong item
                return super().grade(config, {**item, "id": "other"}, answer, deadline)
            if "yes" in answer:  # overruns its deadline
                while not deadline.expired():
                    pass
                time.sleep(1.2)
            return super().grade(config, item, answer, deadline, **kwargs)

    (tmp_path / "sums.jsonl").write_text('{"id": "a", "a": 1, "b": 2}\n{"id": "a", "a": 3, "b": 4}\n')
    config = toy.ArithConfig(name="sloppy", dataset=str(tmp_path / "sums.jsonl"))
    problems = check_benchmark(Sloppy(), config, max_items=1, timeout_s=0.1)
    assert "item ids are not unique" in problems
    assert "item a: result for id 'other' (out of order?)" in problems
    assert any(p.startswith("grade raised RecursionError") for p in problems)
    assert any(p.startswith("item a: grade took") for p in problems), problems
    assert check_benchmark(toy.BENCHMARK, config) == ["item ids are not unique"]


def test_transformers_backend_conforms(tiny_model):
    spec = get_backend("transformers")
    options = make_config({"name": "b", "model": {"backend": "transformers", "model": str(tiny_model),
                                                  "device": "cpu", "max_new_tokens": 3},
                           "benchmark": {"name": "planetarium", "dataset": "d"}}).model
    assert check_backend(spec, options, str(tiny_model)) == []


def test_unknown_benchmark_and_missing_prompts_are_one_line_errors(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("name: n\nmodel: {backend: transformers, model: m}\nbenchmark: {name: mmlu, "
                      "dataset: d}\n")
    with pytest.raises(ValueError, match="benchmark.name: unknown benchmark 'mmlu' "
                                         r"\(registered: acpbench, planetarium"):
        load_config(config)
    with pytest.raises(AcpDataError, match="no configs/tasks/acp_gen_chat in it or above it"):
        find_prompts(tmp_path)
    assert find_prompts(ACP / "land") == ACP / "configs"
