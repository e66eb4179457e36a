"""A domain that is not built in reaches every grading mode the same way on every surface
(issue 37.2).

ACPBench's ferry domain, read from its file, grades one table of pairs — identity, placeholder,
strict placeholder, negative goals, anchored names, ``--explain``, solvability — through
``grade --domain FILE`` (one pair, and ``--batch``), ``grade(..., domain=...)``,
``evaluate(domain_str=...)`` and a plug-in object; every surface gives the same verdicts, and
they are Definition 2's, decided here by enumeration (planetarium.testing.bruteforce).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from planetarium import evaluate
from planetarium.cli import main
from planetarium.domains import Domain, register_domain, unregister_domain
from planetarium.equivalence import PlaceholderSemantics
from planetarium.errors import DomainNotFoundError
from planetarium.grading import GradeOptions, grade, grade_correct
from planetarium.limits import Deadline
from planetarium.pddl.problem import read_problem
from planetarium.planning import SolveStatus, check_solvable
from planetarium.testing.acp_problems import domain_text
from planetarium.testing.bruteforce import equivalent_by_definition

FERRY = domain_text("ferry.pddl")


def ferry(cars: str, init: str, goal: str) -> str:
    return (f"(define (problem p) (:domain ferry) (:objects {cars} - car l0 l1 - location)\n"
            f"(:init (not-eq l0 l1) (not-eq l1 l0) (empty-ferry) {init})\n(:goal {goal}))")


TRUTH = ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l1)", "(at c0 l1)")
TRUTH_NEGATIVE = ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l1)",
                       "(and (at c0 l1) (not (at-ferry l0)))")
SYMMETRIC = ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l0)", "(at c0 l1)")

#: (name, ground truth, answer, anchored names)
PAIRS = [
    ("renamed", TRUTH, ferry("car9 car3", "(at-ferry l0) (at car9 l0) (at car3 l1)",
                             "(at car9 l1)"), ()),
    ("other car, other place", TRUTH, ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l1)",
                                            "(at c1 l0)"), ()),
    ("implied fact added", TRUTH_NEGATIVE,
     ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l1)", "(and (at c0 l1) (at-ferry l1))"), ()),
    ("negative goal dropped", TRUTH_NEGATIVE, TRUTH, ()),
    ("symmetric cars", SYMMETRIC, ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l0)",
                                        "(at c1 l1)"), ()),
    ("symmetric cars, c0 anchored", SYMMETRIC,
     ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l0)", "(at c1 l1)"), ("c0",)),
    ("unsolvable", TRUTH, ferry("c0 c1", "(at-ferry l0) (at c0 l0) (at c1 l1)",
                                "(and (on c0) (on c1))"), ()),
]
MODES = [(False, PlaceholderSemantics.PAPER), (True, PlaceholderSemantics.PAPER),
         (True, PlaceholderSemantics.REACHABLE_GOAL_STATES)]


@pytest.fixture(autouse=True)
def no_ferry_registered():
    def forget():
        try:
            unregister_domain("ferry")
        except DomainNotFoundError:
            pass
    forget()
    yield
    forget()


def oracle(gt: str, pred: str, placeholder: bool, semantics: PlaceholderSemantics,
           anchors: tuple[str, ...]) -> bool:
    definition = Domain.from_pddl(FERRY).definition
    return equivalent_by_definition(definition, read_problem(gt, definition),
                                    read_problem(pred, definition), is_placeholder=placeholder,
                                    anchors=frozenset(anchors), placeholder_semantics=semantics.value)


def verdict(row: dict) -> tuple:
    """What every surface must agree on: the three answers, the status, the explanation."""
    explanation = row.get("explanation")
    return (row["parseable"], row["solvable"], row["equivalent"], row["status"],
            None if explanation is None else explanation["kind"])


def python_rows(domain: Domain | None, semantics: PlaceholderSemantics) -> list[tuple]:
    rows = []
    for _, gt, pred, anchors in PAIRS:
        for placeholder in (False, True):
            result = grade(gt, pred, domain=domain, is_placeholder=placeholder,
                           anchored_objects=anchors, placeholder_semantics=semantics, explain=True)
            rows.append(verdict(result.to_dict()))
    return rows


def cli_rows(tmp_path, semantics: PlaceholderSemantics) -> list[tuple]:
    domain_file = tmp_path / "ferry.pddl"
    domain_file.write_text(FERRY)
    rows = []
    for i, (_, gt, pred, anchors) in enumerate(PAIRS):
        (tmp_path / f"gt{i}.pddl").write_text(gt)
        (tmp_path / f"pred{i}.pddl").write_text(pred)
        for placeholder in (False, True):
            args = ["grade", "--domain", str(domain_file), str(tmp_path / f"gt{i}.pddl"),
                    str(tmp_path / f"pred{i}.pddl"), "--json", "--explain",
                    "--placeholder-semantics", semantics.value]
            args += ["--placeholder"] * placeholder + [x for a in anchors for x in ("--anchor", a)]
            done = CliRunner().invoke(main, args)
            assert done.exit_code == 0, done.output
            rows.append(verdict(json.loads(done.output)))
    return rows


def batch_rows(tmp_path, semantics: PlaceholderSemantics) -> list[tuple]:
    domain_file = tmp_path / "ferry.pddl"
    domain_file.write_text(FERRY)
    lines = [{"id": f"{i}-{placeholder}", "gt": gt, "pred": pred,
              "is_placeholder": placeholder, "anchored_objects": list(anchors)}
             for i, (_, gt, pred, anchors) in enumerate(PAIRS) for placeholder in (False, True)]
    (tmp_path / "pairs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / f"out-{semantics.value}.jsonl"
    done = CliRunner().invoke(main, ["grade", "--batch", str(tmp_path / "pairs.jsonl"), "--domain",
                                     str(domain_file), "--out", str(out), "--workers", "1",
                                     "--explain", "--placeholder-semantics", semantics.value])
    assert done.exit_code == 0, done.output
    return [verdict(json.loads(line)) for line in out.read_text().splitlines()]


@pytest.mark.parametrize("semantics", [PlaceholderSemantics.PAPER,
                                       PlaceholderSemantics.REACHABLE_GOAL_STATES])
def test_every_surface_gives_definition_2s_verdicts(tmp_path, semantics):
    expected = []
    for name, gt, pred, anchors in PAIRS:
        for placeholder in (False, True):
            equivalent = oracle(gt, pred, placeholder, semantics, anchors)
            expected.append((name, placeholder, equivalent))
    given = python_rows(Domain.from_pddl(FERRY), semantics)
    assert [(n, p, row[2]) for (n, p, _), row in zip(expected, given, strict=True)] == expected
    assert all(row[3] == "decided" and row[4] is not None for row in given)
    assert cli_rows(tmp_path, semantics) == given
    unregister_domain("ferry")  # the command registered it in this process
    assert batch_rows(tmp_path, semantics) == given
    unregister_domain("ferry")

    class Ferry(Domain):
        """A plug-in object: the same file, registered by name, no ``domain=`` needed."""

    register_domain(Ferry("ferry", FERRY))
    assert python_rows(None, semantics) == given


def test_evaluate_with_domain_str_agrees():
    for _, gt, pred, anchors in PAIRS:
        for placeholder, semantics in MODES:
            options = GradeOptions(is_placeholder=placeholder, anchored_objects=anchors,
                                   placeholder_semantics=semantics)
            result = grade(gt, pred, domain=Domain.from_pddl(FERRY), options=options)
            assert evaluate(gt, pred, domain_str=FERRY, is_placeholder=placeholder,
                            anchored_objects=anchors, placeholder_semantics=semantics) == (
                result.parseable, result.solvable is True,
                bool(result.equivalent and result.solvable))


def test_the_unsolvable_answer_is_proven_so():
    result = grade(TRUTH, PAIRS[-1][2], domain=Domain.from_pddl(FERRY))
    assert (result.solvable, result.equivalent) == (False, False)
    assert result.solve.status.value == "decided"


def test_an_unregistered_domain_without_domain_is_refused_as_input():
    result = grade(TRUTH, TRUTH)
    assert result.status.value == "invalid-input" and "ferry" in result.reason


def test_a_domain_given_as_text_is_a_clear_type_error_not_an_internal_error():
    """``grade(..., domain=<the file's text>)`` is the caller's bug, said at once (with the way to
    read it), like an ill-typed option, instead of an ``internal-error`` verdict per item."""
    text = "(define (problem p) (:domain lights) (:objects a) (:init) (:goal (and)))"
    for call in (grade, grade_correct):
        with pytest.raises(TypeError, match=r"Domain\.from_pddl"):
            call(text, text, domain="(define (domain lights) ...)")


def test_solvability_asked_after_the_equivalence_check_is_the_planners_verdict():
    """Without a closed form, solvability is decided after equivalence (the engine's ground
    task, plans and proofs are kept by then): the verdict must be the planner's own on the
    answer alone, an equivalent answer's read off the ground truth's."""
    domain = Domain.from_pddl(FERRY)
    for name, gt, pred, anchors in PAIRS:
        for placeholder, semantics in MODES:
            result = grade(gt, pred, domain=domain, is_placeholder=placeholder,
                           anchored_objects=anchors, placeholder_semantics=semantics)
            alone = check_solvable(domain, domain.read_problem(pred), Deadline.start(10))
            assert result.solvable is (alone.status is SolveStatus.SOLVABLE), name
            if result.equivalent:
                assert "equivalent to the ground truth" in result.solve.reason, name
            if result.solvable is False:
                assert result.equivalence.reason.startswith("prediction is unsolvable"), name
