"""The stored gold answers, rendered in the prompt's answer format (their shape: :mod:`.data`).

Rendering the gold answer as a model would write it (``acp gold``) and scoring it is the
self-check of the whole pipeline — grammar, grounding and exact checks must all give it 1.0 —
and an upper bound for reports.  Gold data is read from the question files; nothing is stored
here.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..reasoning.plans import check_plan, places, without
from .data import AcpItem, as_step
from .questions import question_plan, question_task


def _paren(text: str) -> str:
    return "(" + " ".join(as_step(text)) + ")"


def _list(texts: Iterable[str]) -> str:
    return "[" + ", ".join(_paren(t) for t in texts) + "]"


def render_gold(item: AcpItem) -> str:
    """The stored gold answer of a generative question, written as the prompt asks for it."""
    answer = item.answer
    task = item.task
    if task == "app":
        return _list(answer)
    if task == "prog":
        return f"{_list(answer['pos'])} {_list(answer['neg'])}"
    if task in ("reach", "areach"):
        return _paren(answer[0]) if answer else "None"
    if task == "val":
        return str(int(answer))
    if task == "land":
        return _paren(answer["yes"][0]) if answer["yes"] else "None"
    if task == "nexta":
        return _paren(answer["yes"][0]) if answer["yes"] else "None"
    if task == "just":
        return _list(" ".join(s) for s in justified_plan(item))
    raise ValueError(f"unknown task '{task}'")


def justified_plan(item: AcpItem) -> list[tuple[str, ...]]:
    """The question's plan with the first stored removable action or pair taken out.

    The stored entry names actions, not positions; the first position where removing them leaves
    a valid plan is taken (checked on the question's task).
    """
    task = question_task(item)
    plan = question_plan(item.question)
    for entry in item.answer:
        removed = [as_step(entry[0])] + ([as_step(entry[1])] if len(entry) == 3 else [])
        for start in places(plan, removed):
            rest = without(plan, start, len(removed))
            if check_plan(task, rest).ok:
                return rest
    raise ValueError(f"question {item.id}: no stored removal leaves a valid plan")
