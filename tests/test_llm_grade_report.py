"""Grading a run (strict and relaxed typing) and reporting it, on answers with known verdicts."""

from __future__ import annotations

import json

import pytest
from llm_fixtures import demo_rows, known_answers, make_answered_run

from planetarium.llm.grade import grade_run
from planetarium.llm.report import build_report, load_run
from planetarium.llm.store import RunDirError

ROWS = demo_rows(8)


def make_run(run_dir, name: str, rows=ROWS, answers=None, **fields) -> None:
    make_answered_run(run_dir, name, rows, known_answers(rows) if answers is None else answers,
                      **fields)


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


def test_verdicts_and_results_have_the_shared_schema(graded):
    """The keys every benchmark writes, the strict verdict as the shared one."""
    run_dir, results = graded
    verdicts = [json.loads(line) for line in (run_dir / "verdicts.jsonl").read_text().splitlines()]
    for verdict in verdicts:
        assert verdict["status"] == "decided" and verdict["groups"] == {"domain": verdict["domain"]}
        assert verdict["correct"] is verdict["strict"]["correct"] is verdict["metrics"]["correct"]
    assert results["benchmark"] == "planetarium"
    assert results["overall"] == {"n": 8, "correct": 4, "correct_rate": 0.5, "statuses": {"decided": 8},
                                  "metrics": {"parseable": 4, "solvable": 4, "correct": 4}}


def test_a_run_folder_of_the_flat_layout_is_still_graded_and_reported(tmp_path):
    """run.json written before the two config sections: read as a Planetarium run."""
    make_run(tmp_path, "old")
    manifest = json.loads((tmp_path / "run.json").read_text())
    config = manifest.pop("config")
    manifest.pop("benchmark")
    manifest["config"] = {"name": "old", **config["model"], "dataset": "rows.jsonl",
                          "splits": [None], "grade_timeout_s": 7.0}
    (tmp_path / "run.json").write_text(json.dumps(manifest))
    results = grade_run(tmp_path, workers=1, progress=False)
    assert results["config"]["benchmark"] == {"name": "planetarium", "dataset": "rows.jsonl",
                                              "split": [None], "seed": 0, "timeout_s": 7.0}
    assert results["overall"]["correct"] == 4
    assert "| old | planetarium | zero-shot | m |" in build_report([tmp_path]).markdown()


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


def test_report_needs_a_graded_run(tmp_path):
    make_run(tmp_path, "ungraded")
    with pytest.raises(RunDirError, match="not graded"):
        load_run(tmp_path)


def test_incomplete_run_is_graded_on_what_exists(tmp_path):
    make_run(tmp_path, "partial", answers=[])
    results = grade_run(tmp_path, workers=1, progress=False)
    assert results["n_missing"] == len(ROWS) and results["summary"]["strict"]["n"] == 0
    text = build_report([tmp_path]).markdown()
    assert "| partial | 0 | no items | no items | no items | 0 |" in text
    assert f"**partial** is incomplete: {len(ROWS)} selected items have no answer yet" in text


def test_the_progress_bar_counts_against_the_answers_to_grade(tmp_path, capsys):
    """``eval grade``'s bar is labelled with the benchmark and shows n of N (and so an ETA)."""
    make_run(tmp_path, "bar", answers=known_answers(ROWS)[:5])
    grade_run(tmp_path, workers=1, progress=True)
    bar = capsys.readouterr().err.replace("\r", "\n").splitlines()
    assert any(line.startswith("grading planetarium") and "5/5" in line for line in bar), bar
