"""The stored gold answers: their expected shape, and rendered in the prompt's answer format.

Rendering the gold answer as a model would write it (``acp gold``) and scoring it is the
self-check of the whole pipeline — grammar, grounding and exact checks must all give it 1.0 —
and an upper bound for reports.  Gold data is read from the question files; nothing is stored
here.
"""

from __future__ import annotations

from typing import Any

from .data import AcpItem

_STR_LIST = "a list of strings"


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_gold_shape(task: str, answer: Any) -> str | None:
    """Why ``answer`` does not have the stored shape of ``task``'s gold (``None`` if it does)."""
    if task in ("app", "reach", "areach"):
        return None if _is_str_list(answer) else f"expected {_STR_LIST}"
    if task == "prog":
        ok = isinstance(answer, dict) and all(_is_str_list(answer.get(k)) for k in ("pos", "neg"))
        return None if ok else "expected {'pos': [...], 'neg': [...]} of strings"
    if task == "val":
        ok = isinstance(answer, int) or (isinstance(answer, str) and answer.strip().isdigit())
        return None if ok else "expected a non-negative integer index"
    if task == "just":
        ok = isinstance(answer, list) and all(_is_str_list(a) and len(a) in (2, 3) for a in answer)
        return None if ok else "expected a list of [action, action, '-1'] or [action, count] lists"
    if task == "land":
        ok = isinstance(answer, dict) and all(_is_str_list(answer.get(k)) for k in ("yes", "no"))
        return None if ok else "expected {'yes': [...], 'no': [...]} of strings"
    if task == "nexta":
        ok = (isinstance(answer, dict) and all(_is_str_list(answer.get(k))
                                               for k in ("yes", "no", "maybe"))
              and str(answer.get("opt", "")).strip().isdigit())
        return None if ok else "expected {'yes', 'no', 'maybe': [...], 'opt': int}"
    return f"unknown task '{task}'"


def as_step(text: str) -> tuple[str, ...]:
    """A stored action or atom string (``'(at c1 l0)'`` or ``'at c1 l0'``) as a lower-case step."""
    return tuple(text.strip().strip("()").lower().split())


def _paren(text: str) -> str:
    return "(" + " ".join(as_step(text)) + ")"


def _list(texts) -> str:
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
    a valid plan is taken (validated with our own simulator).
    """
    from ..strips.validate import validate_plan
    from .model import AcpTask
    from .questions import question_plan

    task = AcpTask.from_item(item)
    plan = question_plan(item.question)
    for entry in item.answer:
        removed = [as_step(entry[0])] + ([as_step(entry[1])] if len(entry) == 3 else [])
        width = len(removed)
        for i in range(len(plan) - width + 1):
            if plan[i:i + width] == removed:
                rest = plan[:i] + plan[i + width:]
                if validate_plan(task.domain, task.problem, rest).ok:
                    return rest
    raise ValueError(f"question {item.id}: no stored removal leaves a valid plan")
