"""Benchmarks are plug-ins of one evaluation loop.

A toy benchmark from outside the package (examples/plugin/planetarium_example/arith.py) is made
known the way an installed package would do it (an entry point in a dist-info directory on the
path: no pip, no network) and runs through ``eval run / grade / report / view`` with the tiny
local model, and in lm-eval and Inspect by name, with the same answers and verdicts; ACPBench
runs through the very same commands from its own config, and its results carry
the shared status.  The conformance kit is exercised on all three benchmarks and on the
transformers backend.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from llm_fixtures import demo_rows, make_answered_run, write_rows
from viewer_fixtures import page_policy_breaches

from planetarium.acp.data import AcpDataError, load_items
from planetarium.acp.grades import outcome
from planetarium.acp.score import CLOCK, answer_row, grade_answer
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
from planetarium.limits import Deadline
from planetarium.llm.backends import get_backend
from planetarium.llm.config import load_config, make_config
from planetarium.llm.report import build_report
from planetarium.llm.store import read_jsonl
from planetarium.testing.extensions import check_backend, check_benchmark

REPO = Path(__file__).resolve().parents[1]
TOY_DIR = REPO / "examples" / "plugin"  # the outside package of the benchmark
ACP = Path(__file__).parent / "fixtures" / "acp"
STATUSES = {status.value for status in Status}


def _cli(env: dict[str, str], *argv: str) -> str:
    return _run(env, "-m", "planetarium.cli", *map(str, argv))


def _run(env: dict[str, str], *argv: str, cwd: Path = REPO) -> str:
    done = subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True,
                          timeout=600, cwd=cwd)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return done.stdout


def _toy_answer(item: dict, answer: str) -> dict[str, bool]:
    """The toy's metrics worked out here, independently of its grader: the first number in the
    answer (at most 12 digits) read, and compared with the sum."""
    found = re.search(r"-?\d{1,12}", answer)
    correct = found is not None and int(found.group()) == item["a"] + item["b"]
    return {"parseable": found is not None, "correct": correct}


def test_toy_benchmark_from_outside_gets_everything_the_package_offers(tmp_path, tiny_model):
    """Registered only through an installed distribution's entry point, the toy benchmark runs
    through eval run / grade / report / view, and in lm-eval and Inspect by name, with the
    same answers and verdicts everywhere; nothing in the package names it."""
    dist = tmp_path / "toy_arith-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-arith\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[planetarium.benchmarks]\ntoy-arith = planetarium_example.arith:BENCHMARK\n")
    rows = [{"id": f"q{i}", "a": 7 * i, "b": 50 + i} for i in range(5)]
    sums = tmp_path / "sums.jsonl"
    sums.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "toy.yaml"
    config.write_text(yaml.safe_dump({
        "name": "toy", "model": {"backend": "transformers", "model": str(tiny_model),
                                 "device": "cpu", "max_new_tokens": 4},
        "benchmark": {"name": "toy-arith", "dataset": str(sums)}}))
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
    answers = {r["id"]: r["output"] for r in read_jsonl(run / "completions.jsonl")}
    for row, verdict in zip(rows, verdicts, strict=True):
        assert verdict["metrics"] == _toy_answer(row, answers[row["id"]])
    overall = json.loads((run / "report" / "tables" / "overall.json").read_text())["rows"][0]
    assert overall["correct_k"] == sum(v["correct"] for v in verdicts) and overall["n"] == 5

    # eval view: an index row per item, a page with the prompt, each answer's verdict and text
    _cli(env, "eval", "view", run, "--out", tmp_path / "view")
    index = (tmp_path / "view" / "index.html").read_text(encoding="utf-8")
    assert index.count('<tr data-size="') == 5 and 'id="filter-size"' in index
    page = (tmp_path / "view" / "items" / "00001-q1.html").read_text(encoding="utf-8")
    assert "What is 7 + 51? Answer with the number only." in page
    assert html.escape(answers["q1"]) in page and "<h3>Verdict</h3>" in page
    status = "correct" if verdicts[1]["correct"] else (
        "not parseable" if not verdicts[1]["metrics"]["parseable"] else "not correct")
    assert f">{status}</span>" in page
    assert page_policy_breaches(tmp_path / "view") == []  # the viewer's CSP holds here too

    # lm-eval: a task per registered benchmark, the toy's among them
    tasks = Path(_run(env, "-m", "planetarium.adapters.lm_eval", "--out", str(tmp_path / "tasks")
                      ).strip())
    assert (tasks / "toy-arith.yaml").is_file() and (tasks / "planetarium.yaml").is_file()
    lm_out = tmp_path / "lm_eval"
    _run(env, "-m", "lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32",
         "--apply_chat_template", "--tasks", "toy-arith", "--include_path", str(tasks),
         "--metadata", json.dumps({"dataset": str(sums)}), "--gen_kwargs", "max_gen_toks=4",
         "--device", "cpu", "--batch_size", "1", "--output_path", str(lm_out), "--log_samples",
         cwd=tmp_path)
    [results] = lm_out.glob("*/results_*.json")
    assert {"parseable,none", "correct,none"} <= set(json.loads(results.read_text())["results"]["toy-arith"])
    samples = [json.loads(line) for f in lm_out.glob("*/samples_toy-arith_*.jsonl")
               for line in f.read_text().splitlines()]
    assert sorted(s["doc"]["id"] for s in samples) == [r["id"] for r in rows]
    for sample in samples:
        item = next(r for r in rows if r["id"] == sample["doc"]["id"])
        assert sample["resps"] == [[answers[item["id"]]]]  # the same chat, the same greedy answer
        expected = _toy_answer(item, sample["resps"][0][0])
        assert {m: sample[m] for m in expected} == {m: int(v) for m, v in expected.items()}

    # Inspect: the one task, -T benchmark=toy-arith
    logs = tmp_path / "logs"
    _run(env, "-m", "inspect_ai", "eval", "planetarium/adapters/inspect_task.py@planetarium",
         "--model", f"hf/{tiny_model}", "-M", "do_sample=false", "-M", "device=cpu",
         "-M", "dtype=float32", "-M", 'tokenizer_call_args={"add_special_tokens": false}',
         "-T", "benchmark=toy-arith", "-T", f"dataset={sums}", "--max-tokens", "4",
         "--max-connections", "1", "--log-dir", str(logs), "--log-format", "json",
         "--display", "none")
    [log_file] = logs.glob("*.json")
    log = json.loads(log_file.read_text())
    assert log["status"] == "success" and len(log["samples"]) == 5
    for sample in log["samples"]:
        item = next(r for r in rows if r["id"] == str(sample["id"]))
        answer = sample["output"]["choices"][0]["message"]["content"]
        assert answer == answers[item["id"]]
        score = sample["scores"]["planetarium_grader"]
        assert score["value"] == {m: int(v) for m, v in _toy_answer(item, answer).items()}
        assert score["metadata"]["status"] == "decided"


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
        item = items[verdict["id"]]
        direct = grade_answer(item, answers[verdict["id"]], Deadline.start(5, CLOCK))
        assert (verdict["acp_outcome"], verdict["score"], verdict["status"]) == (
            outcome(answer_row(item, direct, 0.0)), direct.score, direct.status.value)
        assert verdict["correct"] == (None if direct.score is None else direct.score == 1.0)
    reported = runner.invoke(main, ["eval", "report", str(run)])
    assert reported.exit_code == 0 and "## Overall (acpbench)" in reported.output
    assert "By kind × task" in (run / "report" / "report.md").read_text()
    viewed = runner.invoke(main, ["eval", "view", str(run), "--out", str(tmp_path / "view")])
    assert viewed.exit_code == 0, viewed.output
    index = (tmp_path / "view" / "index.html").read_text(encoding="utf-8")
    assert index.count("<tr data-kind=") == 3 and 'id="filter-task"' in index
    pages = sorted((tmp_path / "view" / "items").glob("*.html"))
    assert len(pages) == 3 and all("<h2>Prompt</h2>" in p.read_text(encoding="utf-8") for p in pages)
    assert page_policy_breaches(tmp_path / "view") == []
    empty = runner.invoke(main, [*argv, "--set", "benchmark.split=[test]", "--out",
                                 str(tmp_path / "empty")])  # the fixtures hold dev files only
    assert empty.exit_code == 1 and "benchmark: no acpbench items in" in empty.output
    assert not (tmp_path / "empty").exists()


@pytest.fixture
def toy(monkeypatch):
    """The toy module, importable; registered at run time for this test only."""
    monkeypatch.syspath_prepend(str(TOY_DIR))
    from planetarium_example import arith as toy_arith

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
                                         r"\(registered: acpbench, arb, planetarium"):
        load_config(config)
    with pytest.raises(AcpDataError, match="no configs/tasks/acp_gen_chat in it or above it"):
        find_prompts(tmp_path)
    assert find_prompts(ACP / "land") == ACP / "configs"
