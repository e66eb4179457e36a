"""ALFWorld's ADL domain (ACPBench's ``alfred``) graded like any other domain (issue 37.4).

The grader reads an ADL domain through the same compiler ACPBench's questions use
(planetarium.reasoning.adl): constants declared, ``(not (= ...))`` and static disjunctions made
helper facts, unit costs dropped.  A problem's text may hold the cost bookkeeping
(``(= (total-cost) 0)``, ``:metric``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planetarium import evaluate
from planetarium.domains import Domain
from planetarium.grading import Status, grade
from planetarium.testing.acp_problems import domain_text

FIXTURE = Path(__file__).parent / "fixtures" / "acp-test-style" / "reach" / "test.gen.json"
GOAL = "(:goal (validateheatandplace appletype countertoptype))"


@pytest.fixture(scope="module")
def truth() -> str:
    records = json.loads(FIXTURE.read_text())
    return next(r["PDDL_problem"] for r in records if "(domain alfred)" in r["PDDL_domain"])


@pytest.fixture(scope="module")
def alfred() -> Domain:
    return Domain.from_pddl(domain_text("alfred.pddl"))


def test_the_domain_is_read_through_the_adl_compiler(alfred, truth):
    assert alfred.compiles_adl
    problem = alfred.read_problem(f"Here it is:\n{truth}\nDone.")
    assert {"butterknifetype", "fridgetype"} <= set(problem.objects)  # the domain's constants
    assert any(a[0] == "adl-distinct" for a in problem.init)
    assert not Domain.from_pddl(domain_text("ferry.pddl")).compiles_adl


def test_renamed_answer_is_equivalent(alfred, truth):
    answer = truth.replace("apple1", "fruit7").replace("loc2", "kitchen")
    for placeholder in (False, True):
        result = grade(truth, answer, domain=alfred, is_placeholder=placeholder)
        assert (result.status, result.parseable, result.solvable, result.equivalent) == (
            Status.DECIDED, True, True, True), result.reason


def test_wrong_answers_are_not_equivalent(alfred, truth):
    moved = truth.replace("(inreceptacle apple1 countertop1) (objectatlocation apple1 loc2)",
                          "(inreceptacle apple1 drawer1) (objectatlocation apple1 loc2)")
    impossible = truth.replace(GOAL, "(:goal (validateheatandplace knifetype countertoptype))")
    for answer, why in ((moved, "initial states differ"), (impossible, "no plan exists")):
        result = grade(truth, answer, domain=alfred)
        assert (result.status, result.equivalent) == (Status.DECIDED, False), result.reason
        assert why in result.equivalence.reason


def test_evaluate_takes_the_adl_domain_text(truth):
    text = domain_text("alfred.pddl")
    assert evaluate(truth, truth.replace("mug1", "cup3"), domain_str=text) == (True, True, True)
    assert evaluate(truth, truth.replace(GOAL, "(:goal (validateheatandplace knifetype "
                                               "countertoptype))"), domain_str=text)[2] is False


def test_an_unsupported_adl_construct_is_unsupported_not_a_crash(alfred, truth):
    answer = truth.replace("(:metric minimize (total-cost))", "(:metric maximize (total-cost))")
    result = grade(truth, answer, domain=alfred)
    assert result.status is Status.UNSUPPORTED and result.equivalent is None


def test_grade_command_takes_the_adl_domain_file(tmp_path, truth):
    from click.testing import CliRunner

    from planetarium.cli import main
    from planetarium.domains import unregister_domain

    domain_file = tmp_path / "alfred.pddl"
    domain_file.write_text(domain_text("alfred.pddl"))
    (tmp_path / "gt.pddl").write_text(truth)
    (tmp_path / "pred.pddl").write_text(truth.replace("knife1", "blade2"))
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": "a", "gt": truth, "pred": truth.replace("loc4", "sink")})
                     + "\n")
    try:
        one = CliRunner().invoke(main, ["grade", "--domain", str(domain_file), "--json",
                                        str(tmp_path / "gt.pddl"), str(tmp_path / "pred.pddl")])
        assert one.exit_code == 0 and json.loads(one.output)["equivalent"] is True, one.output
        batch = CliRunner().invoke(main, ["grade", "--domain", str(domain_file), "--batch",
                                          str(pairs), "--workers", "1"])
        assert batch.exit_code == 0, batch.output
        row = json.loads(batch.stdout.splitlines()[0])
        assert (row["domain"], row["equivalent"]) == ("alfred", True)
    finally:
        unregister_domain("alfred")


KINDS = """(define (domain kinds) (:requirements :strips :typing)
  (:types thing kind) (:constants hot - kind)
  (:predicates (is ?t - thing ?k - kind) (seen ?t - thing) (done ?t - thing))
  (:action look :parameters (?t - thing ?k - kind) :precondition (is ?t ?k) :effect (seen ?t))
  (:action heat :parameters (?t - thing) :precondition (is ?t hot) :effect (done ?t)))"""


@pytest.mark.parametrize("placeholder", [False, True])
def test_a_renaming_never_moves_a_constant_of_the_domain(placeholder):
    """Swapping a and b together with the constant ``hot`` and the object ``mild`` maps one
    initial state and goal onto the other, but ``heat`` names ``hot``: only a can be heated,
    so seeing b and seeing a are different tasks — for the grader, its explanation and the
    brute-force referee, which keep the domain's constants in place in every mode."""
    from planetarium.limits import deadline_for
    from planetarium.testing.bruteforce import equivalent_by_definition

    domain = Domain.from_pddl(KINDS)
    text = ("(define (problem p) (:domain kinds) (:objects a b - thing mild - kind)"
            " (:init (is a hot) (is b mild)) (:goal (seen {})))")
    result = grade(text.format("b"), text.format("a"), domain=domain, is_placeholder=placeholder,
                   explain=True)
    assert (result.status, result.equivalent) == (Status.DECIDED, False), result.reason
    explained = result.explanation.to_dict()  # its best renaming keeps the constant too
    assert explained["renaming"]["hot"] == "hot" and explained["goal"]["missing"], explained
    truth, prediction = (domain.read_problem(text.format(x)) for x in "ba")
    with deadline_for(10).applied():
        assert not equivalent_by_definition(domain.definition, truth, prediction,
                                            is_placeholder=placeholder)
