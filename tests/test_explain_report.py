"""Error categories in ``eval report``: a tiny run with answers of known kinds, graded with
explanations, reported as a table (n and intervals) and a figure."""

from __future__ import annotations

import json
import random

import pytest
from llm_fixtures import demo_rows, known_answers, make_answered_run

from planetarium.benchmarks.planetarium.report import categories_of
from planetarium.grading import load_ground_truth
from planetarium.llm.grade import grade_run
from planetarium.llm.report import build_report, write_report
from planetarium.pddl.writer import problem_to_pddl
from planetarium.testing.pairs import near_miss
from planetarium.testing.wrong_answers import extra_object

ROWS = demo_rows(8)


def _answers() -> list[str]:
    """Rows 0-3: correct, typed, fenced, garbage (llm_fixtures); 4-5: a near miss; 6-7: one
    object too many."""
    rng = random.Random(1)
    answers = known_answers(ROWS)[:4]
    for row, mutate in zip(ROWS[4:], [near_miss, near_miss, extra_object, extra_object],
                           strict=True):
        _, truth = load_ground_truth(row["problem_pddl"])
        answers.append(problem_to_pddl(mutate(truth, rng)))
    return answers


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("run")
    make_answered_run(run_dir, "mixed", ROWS, _answers())
    grade_run(run_dir, workers=1, progress=False)
    return run_dir


def test_verdicts_carry_explanations_and_categories(run):
    verdicts = [json.loads(line)["strict"] for line in
                (run / "verdicts.jsonl").read_text().splitlines()]
    found = [categories_of(v) for v in verdicts]
    assert found[0] == ("correct",) and found[2] == ("correct",)
    assert found[1] == ("not-parseable",) and found[3] == ("not-parseable",)
    assert all("explanation" in v for v in verdicts)
    assert all("wrong-object-count" in f for f in found[6:]), found
    near = [f for f in found[4:6] if f != ("correct",)]  # a near miss may be equivalent
    assert all({"wrong-goal", "unsolvable", "goal-under-specified"} & set(f) for f in near), near


def test_report_has_the_category_tables_and_figure(run, tmp_path):
    report = build_report([run])
    tables = {t.name: t for t in report.tables}
    overall = tables["categories_strict"]
    row = dict(zip(overall.columns, overall.rows[0], strict=True))
    assert row["n"] == 8 and (row["correct"].k, row["correct"].n) == (2, 8)
    assert row["not-parseable"].k == 2 and row["wrong-object-count"].k == 2
    text = report.markdown()
    assert "Error categories" in text and "25.0% [7.1, 59.1] (2/8)" in text
    by_domain = tables["categories_by_domain_strict"]
    assert {r[1] for r in by_domain.rows} == {"blocksworld", "gripper"}
    assert sum(r[2] for r in by_domain.rows) == 8
    write_report([run], tmp_path)
    assert (tmp_path / "categories.png").stat().st_size > 10_000
    assert (tmp_path / "tables" / "categories_strict.csv").read_text().startswith("run,n,")


def test_runs_graded_without_explanations_say_so(tmp_path):
    make_answered_run(tmp_path, "plain", ROWS, _answers())
    grade_run(tmp_path, workers=1, progress=False, explain=False)
    overall = {t.name: t for t in build_report([tmp_path]).tables}["categories_strict"]
    row = dict(zip(overall.columns, overall.rows[0], strict=True))
    assert row["not explained"].k == 4 and row["not-parseable"].k == 2
