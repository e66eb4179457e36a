"""How well ARB answers are read: the grader's scores against a careful human's (issue 38).

The reading set (``tests/fixtures/arb_reading``) holds questions this project renders itself
(:mod:`planetarium.arb.render`, no ARB data) and answers written by hand in the ways people and
models answer: yes/no, "not possible", final-answer lines, numbers in words, free English lists
with groupings, negations and bullets.  Each answer carries the score a careful human gave it
*before* it was graded (``human``: 1, 0, or null where a human could not tell), scored by what
the question's text says; for an ill-posed question, ``human_vs_label`` is the human's score
against the stored label (what the generator meant).

Beside the grader, ARB's own scoring method as its paper describes it: the keyword rule for
true/false answers (the words "true" and "false" after the first ``[ANSWER]``, compared with the
stored label; both or neither: the answer is dropped) and, for free answers, an ideal judge
standing in for its Llama-3.1-70B judge: an exact comparison of what the answer means with the
stored label, which is the human's own reading scored against the label.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..arb.answers import arb_keyword
from ..arb.records import ArbRecord, record_from_raw
from ..arb.score import deadline_for_item, score_record


@dataclass(frozen=True)
class Case:
    """One hand-written answer to one rendered question, with the human's scores."""

    id: str
    record: ArbRecord
    response: str
    human: int | None
    note: str
    human_vs_label: int | None


def load_cases(folder: str | Path) -> list[Case]:
    """The reading set in ``folder`` (``questions.jsonl`` and ``answers.jsonl``)."""
    folder = Path(folder)
    records = {}
    with open(folder / "questions.jsonl", encoding="utf-8") as stream:
        for number, line in enumerate(stream, 1):
            raw = json.loads(line)
            records[raw["id"]] = record_from_raw(raw, f"questions.jsonl: line {number}")
    cases = []
    with open(folder / "answers.jsonl", encoding="utf-8") as stream:
        for line in stream:
            row = json.loads(line)
            human = row["human"]
            cases.append(Case(row["id"], records[row["id"]], row["response"], human,
                              row.get("note", ""), row.get("human_vs_label", human)))
    return cases


@dataclass(frozen=True)
class Judged:
    """One case with the grader's row and ARB's method's score (None: dropped)."""

    case: Case
    row: dict[str, Any]
    arb: int | None

    @property
    def grader_agrees(self) -> bool:
        return self.row["score"] == self.case.human

    @property
    def arb_agrees(self) -> bool:
        return self.arb is not None and self.arb == self.case.human


def arb_method(case: Case) -> int | None:
    """ARB's published scoring of ``case`` (None: a true/false answer it drops)."""
    if case.record.answer_type == "true_false_answer":
        word = arb_keyword(case.response)
        return None if word not in ("True", "False") else int(word == case.record.answer)
    return case.human_vs_label


def judge(cases: Iterable[Case]) -> list[Judged]:
    return [Judged(case, score_record(case.record, case.response, deadline_for_item()),
                   arb_method(case)) for case in cases]


def agreement(judged: list[Judged], axis: str) -> list[dict[str, Any]]:
    """Per value of ``axis`` ("category" or "domain") and overall: n, the grader's and ARB's
    method's agreement with the human, and how many answers ARB's method drops."""
    groups: dict[str, list[Judged]] = defaultdict(list)
    for item in judged:
        key = item.case.record.category if axis == "category" else item.case.record.domain
        groups[key].append(item)
    groups["all"] = list(judged)
    return [{axis: key, "n": len(items),
             "grader": sum(i.grader_agrees for i in items) / len(items),
             "arb": sum(i.arb_agrees for i in items) / len(items),
             "arb_dropped": sum(i.arb is None for i in items)}
            for key, items in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0]))]
