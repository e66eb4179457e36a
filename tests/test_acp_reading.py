"""ACPBench yes/no and multiple-choice answers are read as a careful human reads them.

``tests/fixtures/acp_reading/answers.json`` holds hand-written answers to ACPBench dev
questions, each with the reading a human gave it before grading (``bench/bench_acp_reading.py``
prints the agreement per task beside the published rule's).
"""

import json
from pathlib import Path

import pytest

from planetarium.acp.choice import extract_choice, score_choice
from planetarium.acp.data import AcpItem

DATA = json.loads((Path(__file__).parent / "fixtures" / "acp_reading" / "answers.json")
                  .read_text(encoding="utf-8"))


def _reading(answer):
    item = DATA["items"][answer["item"]]
    kind = answer["item"].split("/")[1]
    return extract_choice(answer["response"], kind, item.get("choices", []))


def test_the_set_is_large_varied_and_scored_by_hand():
    answers = DATA["answers"]
    assert len(answers) >= 150
    assert len({(a["item"], a["response"]) for a in answers}) == len(answers)
    assert {a["item"].split("/")[0] for a in answers} == {
        "app", "areach", "just", "land", "prog", "reach", "val"}
    humans = {a["human"] for a in answers}
    assert humans == {"yes", "no", "A", "B", "C", "D", None}


def test_the_grader_reads_as_the_human_on_98_percent():
    agree = [_reading(a) == a["human"] for a in DATA["answers"]]
    assert sum(agree) / len(agree) >= 0.98, [
        a["response"] for a, ok in zip(DATA["answers"], agree, strict=True) if not ok]


@pytest.mark.parametrize(("text", "kind", "want"), [
    ("No - t2 does not hold p3; yes, t2 is at l2-2, but that is not enough.", "bool", "no"),
    ("Final answer: yes. Final answer: no.", "bool", None),
    ("It is not true.", "bool", "no"),
    ("A plan exists: the answer is option C.", "mcq", "C"),
    ("A, B and C are ill-typed. D is the answer.", "mcq", "D"),
    ("Answer: A or D", "mcq", None),
])
def test_stated_verdicts_win_over_words_in_the_explanation(text, kind, want):
    assert extract_choice(text, kind) == want


def test_an_option_quoted_by_its_text_is_that_option():
    item = AcpItem(id="1", task="val", kind="mcq", group="validation_mcq", context="",
                   question="", answer="B",
                   choices={"text": ["The sequence is not valid", "The sequence is a plan"],
                            "label": ["A", "B"]})
    right = score_choice(item, "The sequence is a plan.")
    assert (right.correct, right.parseable) == (True, True)
    unread = score_choice(item, "I cannot decide.")
    assert (unread.correct, unread.parseable) == (False, False)


def test_an_answer_past_the_length_limit_is_unparseable_with_the_reason():
    item = AcpItem(id="1", task="app", kind="bool", group="applicable_actions_bool",
                   context="", question="", answer="yes")
    grade = score_choice(item, "yes " * 30_000)
    assert grade.parseable is False and "limit" in grade.reason
