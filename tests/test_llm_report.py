"""``eval report`` on runs with known verdicts: identities and labels, the refusal of runs over
different items, rates with n and intervals, paired comparisons, exports, figures and notes."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner
from llm_fixtures import demo_rows, known_answers, make_answered_run

from planetarium.benchmarks.planetarium.figures import FIGURES
from planetarium.benchmarks.planetarium.report import AXES, abstractness
from planetarium.benchmarks.planetarium.verdicts import passed, undecided
from planetarium.cli import main
from planetarium.llm.grade import grade_run
from planetarium.llm.identity import ReportError
from planetarium.llm.report import build_report, write_report
from planetarium.presentation.stats import wilson_interval

ROWS = demo_rows(8)


def graded_run(run_dir, name: str, answers=None, rows=ROWS, **fields):
    make_answered_run(run_dir, name, rows, known_answers(rows) if answers is None else answers,
                      **fields)
    grade_run(run_dir, workers=1, progress=False)
    return run_dir


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """Two runs of one config over the same 8 items, told apart only by ``--model``:
    ``m`` answers 4 correctly under strict typing, ``tiny:`` nothing."""
    base = tmp_path_factory.mktemp("runs")
    known = graded_run(base / "known", "same")
    garbage = graded_run(base / "garbage", "same", ["no pddl here"] * len(ROWS), model="tiny:")
    return known, garbage


@pytest.fixture(scope="module")
def written(pair, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return out, write_report(list(pair), out)


def _table(report, name):
    return next(table for table in report.tables if table.name == name)


def test_same_config_different_model_gets_different_labels(written):
    _, report = written
    assert [run.label for run in report.runs] == ["same [model m]", "same [model tiny:]"]


def test_labels_extend_only_as_far_as_needed(tmp_path):
    zero = graded_run(tmp_path / "a", "gemma", model="g")
    tuned = graded_run(tmp_path / "b", "gemma", model="g", adapter="runs/g/adapter")
    other = graded_run(tmp_path / "c", "other", model="h")
    runs = build_report([tuned, other, zero]).runs
    # a unique name stays as it is; zero-shot is put before the fine-tuned run of its model
    assert [run.label for run in runs] == [
        "gemma [adapter none]", "gemma [adapter runs/g/adapter]", "other"]
    assert [run.setting for run in runs] == ["zero-shot", "fine-tuned", "zero-shot"]


def test_label_overrides(pair):
    report = build_report(list(pair), ["zero-shot", "fine-tuned"])
    assert [run.label for run in report.runs] == ["zero-shot", "fine-tuned"]
    with pytest.raises(ReportError, match="1 --label for 2 runs: give one label per run"):
        build_report(list(pair), ["only one"])
    with pytest.raises(ReportError, match="unique"):
        build_report(list(pair), ["twin", "twin"])
    with pytest.raises(ReportError, match="more than once"):
        build_report([pair[0], pair[0]])


def test_overall_rates_carry_n_and_wilson_intervals(written):
    _, report = written
    text = report.markdown()
    assert ("| same [model m] | 8 | 50.0% [21.5, 78.5] (4/8) | 50.0% [21.5, 78.5] (4/8) "
            "| 50.0% [21.5, 78.5] (4/8) | 0 |") in text
    assert "| same [model m] | 8 | 75.0% [40.9, 92.9] (6/8) |" in text  # relaxed typing
    assert "| same [model tiny:] | 8 | 0.0% [0.0, 32.4] (0/8) |" in text


def test_paired_comparison_is_exact_mcnemar_on_shared_items(written):
    _, report = written
    rows = _table(report, "paired_strict").records()
    correct = next(row for row in rows if row["stage"] == "correct")
    # m alone is right on 4 items, tiny: alone on none: p = 2 * (1/2)^4
    assert (correct["shared items"], correct["only A"], correct["only B"]) == (8, 4, 0)
    assert correct["p (exact McNemar)"] == pytest.approx(2 / 16)
    assert correct["B − A"] == pytest.approx(-0.5)
    assert correct["at 5% (Holm)"] == "no significant difference"
    assert "| correct | 8 |" in report.markdown() and "| -50.0 pp | 4 | 0 | 0.1250 |" in (
        report.markdown()
    )


def test_a_significant_difference_is_called(tmp_path):
    rows = demo_rows(16)
    good = graded_run(tmp_path / "good", "good", [r["problem_pddl"] for r in rows], rows)
    bad = graded_run(tmp_path / "bad", "bad", ["nothing"] * len(rows), rows)
    record = next(r for r in _table(build_report([bad, good]), "paired_strict").records()
                  if r["stage"] == "correct")
    assert record["p (exact McNemar)"] == pytest.approx(2 / 2**16)
    assert record["at 5% (Holm)"] == "good better"


def test_empty_cells_say_no_items(written):
    _, report = written
    # the demo rows' Blocks World goals are never abstract in odd rows: no such items
    assert ("| same [model m] | blocksworld | explicit to abstract | 0 | no items | no items "
            "| no items | 0 |") in report.markdown()


def test_every_table_is_exported_as_csv_and_json(written):
    out, report = written
    for table in report.tables:
        rows = list(csv.DictReader(io.StringIO((out / "tables" / f"{table.name}.csv").read_text())))
        data = json.loads((out / "tables" / f"{table.name}.json").read_text())
        assert len(rows) == len(data["rows"]) == len(table.rows) and data["title"] == table.title
    overall = json.loads((out / "tables" / "overall_strict.json").read_text())["rows"][0]
    assert (overall["correct_k"], overall["correct_n"], overall["correct_rate"]) == (4, 8, 0.5)
    assert (overall["correct_ci_low"], overall["correct_ci_high"]) == pytest.approx(
        wilson_interval(4, 8))
    empty = json.loads((out / "tables" / "by_domain_abstractness_strict.json").read_text())
    assert any(row["correct_n"] == 0 and row["correct_rate"] is None for row in empty["rows"])


def test_figures_are_written(written):
    out, _ = written
    for name in FIGURES:
        assert (out / name).read_bytes()[:4] == b"\x89PNG", name
    assert set(FIGURES) == {"overall.png", "domains.png", "abstractness.png", "size.png",
                            "funnel.png", "categories.png"}


def test_a_run_with_nothing_correct_is_explained(written):
    _, report = written
    note = next(n for n in report.notes if n.startswith("**same [model tiny:]"))
    assert "Of 8 graded answers, 8 do not parse" in note
    assert "random-weight test model" in note and "no '(define (problem" in note
    assert not any(n.startswith("**same [model m]") for n in report.notes)


def test_runs_over_different_items_are_refused(pair, tmp_path):
    other = graded_run(tmp_path / "other", "other", rows=demo_rows(6), dataset="other.jsonl")
    with pytest.raises(ReportError) as refused:
        build_report([pair[0], other])
    message = str(refused.value)
    assert "not graded on the same items" in message and "--allow-mixed-datasets" in message
    assert "same: dataset rows.jsonl" in message and "other: dataset other.jsonl" in message

    report = build_report([pair[0], other], allow_mixed=True)
    assert "not graded on the same items" in report.warnings[0]
    assert "> **Warning:**" in report.markdown()
    # demo_rows(6) are the first 6 of demo_rows(8): the paired test uses those 6 only
    shared = {r["shared items"] for r in _table(report, "paired_strict").records()}
    assert shared == {6}


def test_report_cli_refuses_cleanly_and_takes_labels(pair, tmp_path):
    runner = CliRunner()
    other = graded_run(tmp_path / "other", "other", rows=demo_rows(4), split=["heldout:test"])
    refused = runner.invoke(main, ["eval", "report", str(pair[0]), str(other)])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert "Error: these runs were not graded on the same items" in refused.output

    out = tmp_path / "report"
    done = runner.invoke(main, ["eval", "report", *map(str, pair), "--out", str(out),
                                "--label", "A", "--label", "B"])
    assert done.exit_code == 0, done.output
    assert "| A | 8 | 50.0% [21.5, 78.5] (4/8) |" in done.output
    assert "## Paired comparisons (strict typing)" in done.output
    assert (out / "report.md").is_file() and (out / "tables" / "runs.csv").is_file()

    mixed = runner.invoke(main, ["eval", "report", str(pair[0]), str(other), "--out",
                                 str(tmp_path / "mixed"), "--allow-mixed-datasets"])
    assert mixed.exit_code == 0 and "warning: these runs were not graded" in mixed.output


def test_stage_chain_and_undecided():
    yes = {"parseable": True, "solvable": True, "equivalent": True}
    assert all(passed(yes, stage) for stage in ("parseable", "solvable", "correct"))
    timed_out = {"parseable": True, "solvable": None, "equivalent": True}
    assert passed(timed_out, "parseable") and not passed(timed_out, "correct")
    assert undecided(timed_out)
    assert not undecided({"parseable": False, "solvable": None, "equivalent": None})
    assert undecided({"parseable": None, "solvable": None, "equivalent": None})
    assert not undecided({"parseable": True, "solvable": False, "equivalent": None})


def test_breakdown_keys():
    size = AXES["size"].key
    assert [size({"init_num_propositions": n - 1, "goal_num_propositions": 1})
            for n in (1, 20, 21, 40, 60, 61, 80, 81, 500)] == [
        "(0,20]", "(0,20]", "(20,40]", "(20,40]", "(40,60]", "(60,80]", "(60,80]", "(80,inf)",
        "(80,inf)",
    ]
    assert abstractness({"init_is_abstract": False, "goal_is_abstract": True}) == (
        "explicit to abstract")


def test_softer_differences_are_warnings_not_refusals(tmp_path):
    from dataclasses import replace

    from planetarium.llm.identity import RunIdentity, check_comparable

    one = RunIdentity(tmp_path / "a", "planetarium", "a", "m", None, "vllm", "d",
                      ("heldout:test",), "h", "c", "p1", "0123456789ab")
    two = replace(one, run_dir=tmp_path / "b", prompt_template_hash="p2",
                  graded_by="ba9876543210+dirty")
    warnings = check_comparable([one, two], ["a", "b"], allow_mixed=False)
    assert len(warnings) == 2
    assert "different prompt templates" in warnings[0]
    assert "0123456789ab, ba9876543210+dirty" in warnings[1]
    with pytest.raises(ReportError, match="not graded on the same items"):
        check_comparable([one, replace(two, splits=("random:test",))], ["a", "b"],
                         allow_mixed=False)


def test_anchored_scores_are_reported_beside_strict_and_relaxed(tmp_path):
    """Answers that rename two blocks the description names are right up to renaming (strict)
    but wrong once named objects must keep their names (anchored)."""
    rows = [row for row in demo_rows(12) if row["domain"] == "blocksworld"
            and "b1," in row["natural_language"] and "b2," in row["natural_language"]
            and "(on b1 b2)" in row["problem_pddl"]][:3]
    assert len(rows) == 3
    swapped = [row["problem_pddl"].replace("b1", "TMP").replace("b2", "b1").replace("TMP", "b2")
               for row in rows]
    run = graded_run(tmp_path / "run", "swap", swapped, rows=rows)
    report = build_report([run])
    by_mode = _table(report, "correct_by_mode").records()[0]
    assert by_mode["strict typing_k"] == 3 and by_mode["relaxed typing_k"] == 3
    assert by_mode["strict typing, objects the description names keep their names_k"] == 0
    assert "Overall (strict typing, objects the description names keep their names)" in (
        report.markdown())
