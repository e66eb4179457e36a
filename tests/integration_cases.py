"""Dataset rows and answers of every kind the integration tests (verifiers, Ray Data) score:
right (fenced, renamed), wrong, unparseable, and slow — a quantified goal whose grading runs
past any short time limit.  Each test checks the kinds against ``grade`` itself, so a kind that
stopped being what its name says fails there, not silently."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from llm_fixtures import blocksworld_row, gripper_row

from planetarium.grading import load_ground_truth
from planetarium.pddl.writer import problem_to_pddl
from planetarium.testing.fuzz import blocks_text

#: Seconds of grading the slow answer overruns (it takes minutes): the tests' time limit.
TIMEOUT_S = 1.0


def slow_problem(blocks: int = 12) -> str:
    """Blocks on the table and a goal of ``blocks`` nested ``forall`` over a disjunction: its
    ground goal has blocks^blocks disjuncts, so grading it against itself cannot finish."""
    names = [f"b{i}" for i in range(blocks)]
    body = "(or " + " ".join(f"(on ?x{i} ?x{i + 1})" for i in range(blocks - 1)) + ")"
    for i in reversed(range(blocks)):
        body = f"(forall (?x{i}) {body})"
    return blocks_text(names, body)


def slow_row(index: int) -> dict[str, Any]:
    """A dataset row whose ground truth is :func:`slow_problem`."""
    row = blocksworld_row(index, 12)
    return {**row, "id": f"slow-{index:03d}", "name": f"slow-{index:03d}",
            "problem_pddl": slow_problem(),
            "natural_language": "Twelve blocks lie on the table. In the goal, for every choice of "
                                "twelve blocks, one of them is on the next."}


def renamed(pddl: str) -> str:
    """The same problem with every object renamed (``b3`` -> ``obj_b3``)."""
    return re.sub(r"\b(b\d+|ball\d+|room\d+|gripper\d+)\b", r"obj_\1", pddl)


def wrong(pddl: str) -> str:
    """The problem less one goal fact (more goal states: never equivalent), as PDDL."""
    _, problem = load_ground_truth(pddl)
    return problem_to_pddl(replace(problem, goal=problem.goal - {max(problem.goal)}))


def cases() -> list[tuple[dict[str, Any], str, str]]:
    """``(row, kind, answer)``: one row per kind of answer, ids unique."""
    return [
        (blocksworld_row(0, 3), "right", f"Here it is:\n```pddl\n{blocksworld_row(0, 3)['problem_pddl']}```"),
        (gripper_row(1, 2), "right", renamed(gripper_row(1, 2)["problem_pddl"])),
        (blocksworld_row(2, 4), "wrong", wrong(blocksworld_row(2, 4)["problem_pddl"])),
        (gripper_row(3, 3), "unparseable", "I am sorry, I cannot write PDDL (define (problem"),
        (slow_row(4), "slow", slow_problem()),
    ]


def check_kind(kind: str, result: Any) -> None:
    """The grader's verdict is the kind the answer claims to be."""
    expected = {"right": ("decided", True), "wrong": ("decided", False),
                "unparseable": ("decided", False), "slow": ("timeout", False)}[kind]
    assert (result.status.value, result.correct) == expected, (kind, result.to_dict())
    if kind == "unparseable":
        assert result.parseable is False
    if kind == "wrong":
        assert result.parseable and result.equivalent is False
