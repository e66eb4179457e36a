"""The final answer is graded (issue 31.6): the last complete problem of the output.

A model that writes a draft problem and then a corrected one means the corrected one; a last
problem cut off by the token limit leaves the complete one before it graded.  The reason says
when several problems were found.
"""

from __future__ import annotations

import time

import pytest

from planetarium.grading import Status, grade
from planetarium.pddl import find_problem

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2 b3)
  (:init (arm-empty) (on-table b1) (on-table b2) (on-table b3) (clear b1) (clear b2) (clear b3))
  (:goal (and (on b1 b2) (on b2 b3))))"""
DRAFT = GT.replace("(on b1 b2) (on b2 b3)", "(on b1 b2)")  # half the tower: wrong
DOMAIN_ECHO = "(define (domain blocksworld) (:predicates (clear ?x) (on ?x ?y)))"


def test_a_draft_then_a_corrected_problem_is_graded_on_the_corrected_one():
    answer = f"First attempt:\n{DRAFT}\nWait, the order is wrong. Corrected:\n{GT}\n"
    result = grade(GT, answer)
    assert result.correct and result.status is Status.DECIDED
    assert "2 problems found in the answer; graded the last complete one (line 6)" in result.reason
    assert result.to_dict()["stages"]["parse"]["reason"].startswith("2 problems found")
    wrong_last = f"{GT}\nHmm, no:\n{DRAFT}"
    result = grade(GT, wrong_last)
    assert result.equivalent is False and "graded the last complete one" in result.reason


def test_a_truncated_last_problem_leaves_the_complete_one_before_it_graded():
    answer = f"{GT}\nLet me also write it with comments:\n{GT[:90]}"
    result = grade(GT, answer)
    assert result.correct
    assert "2 problems found in the answer (1 complete); graded the last complete one" in (
        result.reason)
    only_truncated = grade(GT, GT[:90])
    assert only_truncated.parseable is False and "never closed" in only_truncated.reason


@pytest.mark.parametrize("answer", [
    f"```pddl\n{DOMAIN_ECHO}\n{GT}\n```",                 # an echoed domain is not a problem
    f"{GT}\n; (define (problem old) (:domain blocksworld))",  # nor is one in a comment
    f"Here it is (as asked): {GT} done :)",
])
def test_one_problem_gets_no_note(answer):
    result = grade(GT, answer)
    assert result.correct and "problems found" not in result.reason
    assert find_problem(answer).note is None


def test_the_extraction_counts_and_places_what_it_found():
    answer = "\n".join([DRAFT, DOMAIN_ECHO, GT, GT[:50]])
    found = find_problem(answer)
    assert (found.found, found.complete) == (3, 2)
    assert found.text == GT and found.line == answer[:answer.index(GT, 1)].count("\n") + 1
    # an enclosing form closes after what it holds: the last to close is the last written
    nested = f"(define (problem outer) (:domain blocksworld) {DRAFT})"
    assert find_problem(nested).text == nested


def test_many_complete_problems_are_read_in_linear_time():
    small = "(define (problem x) (:domain blocksworld) (:objects) (:init) (:goal (and)))\n"
    answer = small * 25_000 + GT  # ~2 MB, just under the grader's input cap
    start = time.monotonic()
    result = grade(GT, answer, timeout_s=1.0)
    assert time.monotonic() - start < 4.0
    assert result.correct and "25001 problems found" in result.reason
