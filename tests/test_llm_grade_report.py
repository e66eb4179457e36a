"""Grading a run (strict and relaxed typing) and reporting it, on answers with known verdicts."""

from __future__ import annotations

import json

import pytest

from llm_fixtures import demo_rows, typed_variant
from planetarium.llm.config import make_config
from planetarium.llm.grade import grade_run
from planetarium.llm.report import abstractness, load_run, markdown_report, size_bin, write_report
from planetarium.llm.runner import COMPLETIONS, prepare_run_dir
from planetarium.llm.store import CompletionLog, RunDirError

ROWS = demo_rows(8)


def _answers() -> list[str]:
    """Per row: correct, typed (wrong only when typing is strict), fenced correct, garbage."""
    kinds = [
        lambda gt: gt,
        typed_variant,
        lambda gt: f"Here is the problem:\n```pddl\n{gt}```\nHope this helps!",
        lambda gt: "(define (problem oops",
    ]
    return [kinds[i % 4](row["problem_pddl"]) for i, row in enumerate(ROWS)]


def make_run(run_dir, name: str, rows=ROWS, answers=None) -> None:
    config = make_config(
        {
            "name": name,
            "backend": "transformers",
            "model": "m",
            "dataset": "rows.jsonl",
            "splits": [None],
        }
    )
    prepare_run_dir(run_dir, config, rows)
    with CompletionLog(run_dir / COMPLETIONS) as log:
        log.append(
            [
                {"id": r["id"], "output": a}
                for r, a in zip(rows, _answers() if answers is None else answers)
            ]
        )


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("run")
    make_run(run_dir, "known")
    return run_dir, grade_run(run_dir, workers=1, progress=False)


def test_strict_and_relaxed_verdicts(graded):
    run_dir, results = graded
    strict, relaxed = results["summary"]["strict"], results["summary"]["relaxed"]
    assert (strict["n"], strict["parseable"], strict["solvable"], strict["correct"]) == (8, 4, 4, 4)
    assert (relaxed["parseable"], relaxed["correct"]) == (6, 6)
    verdicts = [json.loads(line) for line in (run_dir / "verdicts.jsonl").read_text().splitlines()]
    assert [v["strict"]["correct"] for v in verdicts] == [True, False, True, False] * 2
    assert [v["relaxed"]["correct"] for v in verdicts] == [True, True, True, False] * 2
    assert (
        "truncated" in verdicts[3]["strict"]["reason"]
        or "never closed" in verdicts[3]["strict"]["reason"]
    )


def test_results_record_reproducibility_facts(graded):
    _, results = graded
    for key in (
        "config",
        "config_hash",
        "dataset_hash",
        "prompt_template_hash",
        "packages",
        "git_revision",
        "graded_at",
    ):
        assert key in results
    assert results["packages"]["planetarium"] and results["n_missing"] == 0


def test_report_tables_and_figures(graded, tmp_path):
    run_dir, _ = graded
    other = tmp_path / "other"
    make_run(other, "garbage", answers=["no pddl"] * len(ROWS))
    grade_run(other, workers=1, progress=False)
    path = write_report([run_dir, other], tmp_path / "report")
    text = path.read_text()
    assert "| known | 8 | 50.0% | 50.0% | 50.0% |" in text  # strict overall
    assert "| known | 8 | 75.0% | 75.0% | 75.0% |" in text  # relaxed overall
    assert "| garbage | 8 | 0.0% | 0.0% | 0.0% |" in text
    for heading in ("By domain", "By abstractness", "By size"):
        assert f"## {heading} (strict typing)" in text and f"## {heading} (relaxed typing)" in text
    for image in ("overall.png", "domains.png"):
        assert (path.parent / image).read_bytes()[:4] == b"\x89PNG"


def test_breakdown_keys():
    assert [size_bin(n) for n in (1, 20, 21, 40, 60, 61, 80, 81, 500)] == [
        "(0,20]",
        "(0,20]",
        "(20,40]",
        "(20,40]",
        "(40,60]",
        "(60,80]",
        "(60,80]",
        "(80,inf)",
        "(80,inf)",
    ]
    row = {"init_is_abstract": False, "goal_is_abstract": True}
    assert abstractness(row) == "explicit to abstract"


def test_report_needs_a_graded_run(tmp_path):
    make_run(tmp_path, "ungraded")
    with pytest.raises(RunDirError, match="not graded"):
        load_run(tmp_path)


def test_incomplete_run_is_graded_on_what_exists(tmp_path):
    make_run(tmp_path, "partial", answers=[])
    results = grade_run(tmp_path, workers=1, progress=False)
    assert results["n_missing"] == len(ROWS) and results["summary"]["strict"]["n"] == 0
    assert "| partial | 0 |" in markdown_report([load_run(tmp_path)])
