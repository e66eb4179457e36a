"""ARB as a benchmark of the evaluation loop (issue 29.4): eval run / grade / report / view on
the tiny local model, both prompts, the conformance kit, per-item grading under a deadline."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from viewer_fixtures import page_policy_breaches

from planetarium.arb.records import load_records
from planetarium.arb.score import deadline_for_item, score_record
from planetarium.benchmarks import get_benchmark
from planetarium.cli import main
from planetarium.config import build
from planetarium.grading import Status
from planetarium.limits import Clock, Deadline
from planetarium.llm.store import read_jsonl
from planetarium.testing.extensions import check_benchmark

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "arb"


def _config(**extra):
    arb = get_benchmark("arb")
    return arb, build(arb.config_type, {"name": "arb", "dataset": str(FIXTURES),
                                        "split": [None], **extra})


def test_arb_conforms_to_the_benchmark_interface():
    arb, config = _config(limit=6)
    assert check_benchmark(arb, config) == []
    assert arb.clock is Clock.CPU and arb.metrics[-1] == "correct"


def test_per_item_grading_is_the_plain_function_of_record_response_and_deadline():
    arb, config = _config()
    items = arb.load_items(config)
    records = {r.id: r for r in load_records([FIXTURES])}
    for item in items[:20]:
        answer = f"[ANSWER]\n{item['answer']}"
        result = arb.grade(config, item, answer, Deadline.start(5.0, Clock.CPU))
        direct = score_record(records[item["id"]], answer, deadline_for_item())
        assert result.details["arb_outcome"] == direct["arb_outcome"]
        assert result.score == direct["score"] and result.status.value == direct["status"]
        if direct["arb_outcome"] in ("correct", "wrong", "unparsed"):
            assert result.status is Status.DECIDED and result.correct == (direct["score"] == 1)
        else:
            assert result.status is Status.UNSUPPORTED and result.correct is None
    expired = arb.grade(config, items[0], "[ANSWER] True",
                             Deadline(1.0, Clock.CPU, 0.0, 0.0))
    assert expired.status is Status.TIMEOUT and expired.details["arb_outcome"] == "timeout"


def test_the_two_prompts_differ_in_the_answer_constraint_only():
    arb, zero = _config()
    _, lines = _config(prompt="one_per_line")
    item = next(i for i in arb.load_items(zero) if i["answer_type"] == "free_answer")
    plain = arb.messages(zero, item)[0]["content"]
    constrained = arb.messages(lines, item)[0]["content"]
    assert constrained.startswith(plain) and "one property per line" in constrained
    assert "[REASON]" in plain and "[ANSWER]" in plain and item["question"] in plain
    assert arb.prompt_fingerprint(zero) != arb.prompt_fingerprint(lines)


def test_eval_run_grade_report_and_view_on_the_tiny_model(tmp_path, tiny_model):
    run = tmp_path / "run"
    argv = ["eval", "run", "--config", str(REPO / "eval" / "tiny-arb.yaml"), "--out", str(run),
            "--set", f"model.model={tiny_model}", "--set", "benchmark.prompt=one_per_line"]
    runner = CliRunner()
    first = runner.invoke(main, [*argv, "--limit", "6"])
    assert first.exit_code == 0 and "6 items, 0 already done, 6 generated" in first.output, \
        first.output
    graded = runner.invoke(main, ["eval", "grade", str(run), "--timeout", "5"])
    assert graded.exit_code == 0 and "arb: n=6:" in graded.output, graded.output
    verdicts = read_jsonl(run / "verdicts.jsonl")
    assert {v["arb_outcome"] for v in verdicts} <= {"correct", "wrong", "unparsed", "ambiguous",
                                                    "unsupported", "timeout", "internal-error"}
    assert all(set(v["groups"]) >= {"category", "domain", "plan_length", "fluent_type", "sign"}
               for v in verdicts)
    results = json.loads((run / "results.json").read_text())
    assert results["benchmark"] == "arb" and "arb_keyword_accuracy" in results["summary"]
    reported = runner.invoke(main, ["eval", "report", str(run)])
    assert reported.exit_code == 0, reported.output
    report = (run / "report" / "report.md").read_text()
    assert "By category × domain × plan_length × fluent_type × sign (arb)" in report
    assert "Wilson" in report
    viewed = runner.invoke(main, ["eval", "view", str(run), "--out", str(tmp_path / "view")])
    assert viewed.exit_code == 0, viewed.output
    page = next((tmp_path / "view" / "items").iterdir()).read_text()
    assert "State the question is about" in page and "recomputed answer" in page
    assert page_policy_breaches(tmp_path / "view") == []
