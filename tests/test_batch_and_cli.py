"""The CLI contract and batch grading: verdicts, JSON rows, exit codes, resilience."""

import hashlib
import json
import time

import pytest
from click.testing import CliRunner

from planetarium.batch import grade_batch
from planetarium.cli import main
from planetarium.domains import Domain, register_domain, unregister_domain
from planetarium.grading import GradeOptions, Stage, Status

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
RENAMED = GT.replace("b1", "x").replace("b2", "y")
WRONG = GT.replace("(on b1 b2)", "(on-table b1)")


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in {"gt": GT, "same": RENAMED, "wrong": WRONG, "garbage": "((("}.items():
        paths[name] = tmp_path / f"{name}.pddl"
        paths[name].write_text(text)
    return paths


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_grade_pair_json(files):
    result = run("grade", files["gt"], files["same"], "--json")
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)
    assert (row["parseable"], row["solvable"], row["equivalent"]) == (True, True, True)
    assert (row["status"], row["stage"], row["correct"]) == ("decided", "equivalence", True)
    assert row["stages"]["solve"] == {"status": "decided", "reason": row["stages"]["solve"]["reason"]}


def test_grade_pair_not_equivalent_is_still_success(files):
    result = run("grade", files["gt"], files["wrong"])
    assert result.exit_code == 0
    assert "equivalent: no" in result.output


def test_unreadable_ground_truth_is_input_error(files):
    result = run("grade", files["garbage"], files["gt"])
    assert result.exit_code == 1
    assert "ground truth" in result.output


def test_missing_file_and_usage_errors(files, tmp_path):
    assert run("grade", tmp_path / "nope.pddl", files["gt"]).exit_code == 1
    assert run("grade", files["gt"]).exit_code == 2
    assert run("grade", "--bogus").exit_code == 2


def test_batch_with_bad_lines_keeps_going(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    lines = [
        json.dumps({"id": "a", "gt": GT, "pred": RENAMED, "is_placeholder": False}),
        "{not json",
        json.dumps({"id": "c", "gt": GT, "pred": 42}),
        json.dumps({"id": "d", "gt": GT, "pred": WRONG, "is_placeholder": False}),
        json.dumps(["a list"]),
        json.dumps({"id": "f", "gt": GT, "pred": "(define (problem", "is_placeholder": True}),
    ]
    pairs.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    result = run("grade", "--batch", pairs, "--out", out, "--workers", 2)
    assert result.exit_code == 1  # finished, but some lines were bad input
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", None, "c", "d", None, "f"]
    assert rows[0]["equivalent"] is True and rows[3]["equivalent"] is False
    assert rows[1]["status"] == "invalid-input" and "line 2: invalid JSON" in rows[1]["reason"]
    assert rows[2]["status"] == "invalid-input" and rows[2]["stage"] == "input"
    assert rows[4]["status"] == "invalid-input" and "line 5: expected a JSON object" in rows[4]["reason"]
    assert rows[5]["parseable"] is False and "never closed" in rows[5]["reason"]
    assert rows[5]["status"] == "decided" and rows[5]["stage"] == "parse"
    for row, line in zip(rows, lines, strict=True):
        assert set(row) == {"id", "domain", "parseable", "solvable", "equivalent", "correct",
                            "status", "stage", "reason", "stages", "input_sha256"}
        assert row["input_sha256"] == hashlib.sha256(line.encode()).hexdigest()


class _Sleepy(Domain):
    """A domain whose fully_specify hangs: the batch must kill it and say 'timeout'."""

    def fully_specify(self, problem):
        time.sleep(60)


SLEEPY_PDDL = """(define (domain sleepy) (:requirements :strips)
  (:predicates (p ?x) (q ?x))
  (:action go :parameters (?x) :precondition (p ?x) :effect (q ?x)))"""


def test_hanging_item_is_killed_and_reported_as_timeout():
    register_domain(_Sleepy("sleepy", SLEEPY_PDDL), replace=True)
    try:
        gt = "(define (problem s) (:domain sleepy) (:objects a b) (:init (p a) (p b)) (:goal (q a)))"
        pred = gt.replace("(q a)", "(and (q a) (q b))")
        items = [{"id": 1, "gt": gt, "pred": pred}, {"id": 2, "gt": GT, "pred": RENAMED}]
        start = time.monotonic()
        options = GradeOptions(timeout_s=0.5, check_solvable=False)
        rows = list(grade_batch(items, options=options, workers=1, grace_s=0.5, progress=False))
        assert time.monotonic() - start < 10
    finally:
        unregister_domain("sleepy")
    assert rows[0].status is Status.TIMEOUT and rows[0].stage is Stage.GRADER
    assert rows[0].equivalent is None and rows[0].id == 1
    assert rows[1].equivalent is True and rows[1].id == 2


def test_demo_command_runs_the_shipped_sample():
    result = run("demo", "--workers", 1)
    assert result.exit_code == 0, result.output
    assert "pairs" in result.output and "correct" in result.output


def test_domains_command_lists_builtins():
    result = run("domains")
    for name in ("blocksworld", "gripper", "floor-tile", "rover-single"):
        assert name in result.output


def test_plan_then_validate(files, tmp_path):
    result = run("plan", files["gt"])
    assert result.exit_code == 0, result.output
    plan_file = tmp_path / "plan.txt"
    plan_file.write_text(result.stdout)
    assert "(stack" in result.stdout
    ok = run("validate", files["gt"], plan_file)
    assert ok.exit_code == 0 and "reaches the goal" in ok.output
    plan_file.write_text("\n".join(result.stdout.splitlines()[:-1]))
    short = run("validate", files["gt"], plan_file)
    assert short.exit_code == 1 and "(on b1 b2)" in short.output


def test_plan_with_explicit_domain_name_and_file(files):
    from importlib.resources import files as package_files

    domain_file = package_files("planetarium.domains.blocksworld").joinpath("domain.pddl")
    for domain in ("blocksworld", str(domain_file)):
        result = run("plan", domain, files["gt"])
        assert result.exit_code == 0 and "(stack" in result.stdout


def test_validate_reports_malformed_plan(files, tmp_path):
    plan_file = tmp_path / "plan.txt"
    plan_file.write_text("(unstack b2 b1\n")
    result = run("validate", files["gt"], plan_file)
    assert result.exit_code == 1 and "line 1" in result.output


def test_plan_exit_status_says_whether_a_plan_exists(tmp_path):
    unsolvable = tmp_path / "unsolvable.pddl"
    unsolvable.write_text(GT.replace("(on b1 b2)", "(on b1 b1)"))
    result = run("plan", unsolvable)
    assert result.exit_code == 1 and "unsolvable" in result.output
    floor = tmp_path / "floor.pddl"
    from tests.test_hostile import _floor_tile

    floor.write_text(_floor_tile(60))
    slow = run("plan", floor, "--timeout", "0.2")
    assert slow.exit_code == 3 and "timeout" in slow.output
