"""``planetarium.evaluate``: the original package's entry point answers as the original does.

The original (github.com/BatsResearch/planetarium, ``planetarium/evaluate.py``) returns
``(parseable, solveable, equivalent)``: equivalence is decided only for a solvable prediction when
solvability is checked, and ``solveable`` is ``False`` when it is not checked.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from test_corpus import CASES, MODES

from planetarium.grading import load_ground_truth
from planetarium.limits import Deadline
from planetarium.pddl import read_problem
from planetarium.planning import SolveStatus, check_solvable

ROOT = Path(__file__).resolve().parent.parent
GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""


def test_the_original_readme_usage():
    import planetarium

    gt_pddl_str = GT
    pred_pddl_str = GT.replace("b1", "x").replace("b2", "y")
    assert planetarium.evaluate(gt_pddl_str, pred_pddl_str) == (True, True, True)
    assert planetarium.evaluate(gt_pddl_str, "(define (problem") == (False, False, False)


def _options(case: dict) -> dict:
    """Our grading options a corpus case needs beyond the original's arguments."""
    placeholder, semantics = MODES[case["mode"]]
    return {"is_placeholder": placeholder, "placeholder_semantics": semantics,
            "relax_typing": bool(case.get("relax_typing", False)),
            "anchored_objects": case.get("anchored_objects", [])}


def _solvable(case: dict) -> bool:
    domain, _ = load_ground_truth(case["gt"], relax_typing=bool(case.get("relax_typing")))
    problem = read_problem(case["pred"], domain.definition,
                           relax_typing=bool(case.get("relax_typing")))
    return check_solvable(domain, problem, Deadline.start(10)).status is SolveStatus.SOLVABLE


def test_the_original_tuple_on_the_conformance_corpus(caplog):
    import planetarium

    caplog.set_level(logging.WARNING, logger="planetarium")
    for name, case in CASES:
        expected = case["expected"]
        parseable = expected != "not-parseable"
        options = _options(case)
        unchecked = planetarium.evaluate(case["gt"], case["pred"], check_solveable=False,
                                         **options)
        assert unchecked == (parseable, False, expected == "equivalent"), name
        checked = planetarium.evaluate(case["gt"], case["pred"], **options)
        solvable = parseable and expected != "unsupported" and _solvable(case)
        assert checked == (parseable, solvable, solvable and expected == "equivalent"), name
        assert all(type(v) is bool for v in checked + unchecked)
    undecided = [r for r in caplog.records if "undecided" in r.getMessage()]
    assert len(undecided) == 2 * sum(case["expected"] == "unsupported" for _, case in CASES) > 0


def test_planner_arguments_are_accepted_ignored_and_noted(caplog, monkeypatch):
    import planetarium
    from planetarium import compat

    monkeypatch.setattr(compat, "_noted", set())  # notes are logged once per process
    caplog.set_level(logging.INFO, logger="planetarium")
    original_domain_text = planetarium.DOMAINS["blocksworld"].replace("(", " ( ")  # reformatted
    got = planetarium.evaluate(GT, GT, original_domain_text, False, True,
                               val="/opt/VAL/Validate", fast_downward="fast-downward.sif",
                               alias="lama-first")
    assert got == (True, True, True)
    notes = " ".join(r.getMessage() for r in caplog.records)
    for name in ("val", "fast_downward", "alias"):
        assert f"argument '{name}'" in notes
    assert "domain_str" not in notes  # the registered domain's own text, reformatted
    other = planetarium.DOMAINS["blocksworld"].replace("(:action", "(:action extra :parameters () "
                                                       ":precondition (and) :effect (and)) (:action", 1)
    assert planetarium.evaluate(GT, GT, other) == (True, True, True)
    assert "graded with the registered definition" in caplog.records[-1].getMessage()


def test_undecided_is_false_and_logged(caplog):
    import planetarium

    caplog.set_level(logging.WARNING, logger="planetarium")
    unsupported = GT.replace("(:goal", "(:metric minimize (total-cost)) (:goal")
    assert planetarium.evaluate(GT, unsupported) == (True, False, False)
    assert planetarium.evaluate("(define (problem", GT) == (False, False, False)
    messages = [r.getMessage() for r in caplog.records]
    assert any("undecided (unsupported" in m for m in messages)
    assert any("undecided (invalid-input at ground-truth" in m for m in messages)


def test_import_planetarium_stays_light():
    code = ("import sys, planetarium; "
            "print(sorted(m for m in sys.modules if m.startswith('planetarium.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("flag", [True, False])
def test_placeholder_flag_is_the_original_positional_argument(flag):
    import planetarium

    gt = GT.replace("(:goal (and (on-table b2) (on b1 b2)))", "(:goal (and (on b1 b2)))")
    swapped = gt.replace("(:goal (and (on b1 b2)))", "(:goal (and (on b2 b1)))")
    assert planetarium.evaluate(gt, swapped, None, flag) == (True, True, flag)
