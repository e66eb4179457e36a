"""Grading answers: one answer under one deadline, and the responses file and rows of ``acp score``.

:func:`grade_answer` is the per-answer entry point: one question, one response, one
:class:`~planetarium.limits.Deadline` (the benchmark's clock is CPU time, so that a busy machine
grades slower but never differently), and a :class:`~.grades.Grade` back, whatever the response
holds.  A whole selection is graded through the benchmark
(:mod:`planetarium.benchmarks.acpbench`, which calls :func:`grade_answer`) on the one item loop;
:func:`answer_row` is the row ``acp score`` writes of each question.

Published ids repeat across tasks (the same id can be a landmark and a reachability question),
so a response may carry ``task`` to say which question it answers; a bare ``id`` that matches
questions of several tasks is refused with the line that holds it rather than guessed, and so
is a second response to the same question.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ResourceLimitError
from ..jsonl import JsonLineError, decode, numbered_lines
from ..limits import Clock, Deadline, collector_paused
from ..reasoning import MAX_STATES
from . import grades
from .choice import score_choice
from .data import AcpDataError, AcpItem
from .gen import PAPER, Rules, score_gen
from .grades import Grade

#: CPU seconds one answer may take by default (``acp score --seconds``).
SECONDS = 20.0
#: What the ACP grader's deadlines count: CPU time of the grading process (the benchmark's one
#: clock constant: :attr:`planetarium.benchmarks.acpbench.AcpBenchmark.clock` is this).
CLOCK = Clock.CPU


def read_rows(path: str | Path, required: tuple[str, ...], what: str) -> list[dict]:
    """The JSON objects of a JSON-lines file, each with the keys ``required`` and its line
    number as ``_line``; every error names the file and line (``what``: what a line should be)."""
    rows = []
    path = Path(path)
    try:
        with open(path, "rb") as stream:
            lines = list(numbered_lines(stream, str(path)))
    except (OSError, JsonLineError) as err:
        raise AcpDataError(f"{path}: cannot read: {err}") from err
    for number, line in lines:
        try:
            row = decode(line)
        except JsonLineError as err:  # bad JSON, or an integer past Python's digit limit
            raise AcpDataError(f"{path}: line {number}: not valid JSON: {err}") from err
        if not isinstance(row, dict) or any(key not in row for key in required):
            keys = " and ".join(f"'{key}'" for key in required)
            raise AcpDataError(f"{path}: line {number}: expected {what} with keys {keys}")
        row["_line"] = number
        rows.append(row)
    return rows


def read_responses(path: str | Path) -> list[dict]:
    """``{"id", "response"[, "task"]}`` per line; errors name the file and line."""
    return read_rows(path, ("id", "response"), "an object")


def match_responses(items: list[AcpItem], responses: list[dict],
                    source: str = "responses") -> dict[tuple[str, str, str], object]:
    """Map each question's ``(kind, task, id)`` to its response text; a line whose id names
    questions of several tasks, or answers a question an earlier line answered, is refused."""
    by_id: dict[str, list[AcpItem]] = {}
    for item in items:
        by_id.setdefault(item.id, []).append(item)
    out: dict[tuple[str, str, str], object] = {}
    lines: dict[tuple[str, str, str], int] = {}
    for row in responses:
        rid = str(row["id"])
        candidates = by_id.get(rid, [])
        if "task" in row:
            candidates = [i for i in candidates if i.task == row["task"]]
        if "kind" in row:
            candidates = [i for i in candidates if i.kind == row["kind"]]
        if len(candidates) > 1:
            tasks = ", ".join(sorted({f"{i.kind}/{i.task}" for i in candidates}))
            raise AcpDataError(f"{source}: line {row['_line']}: id {rid} names questions of "
                               f"several tasks ({tasks}); add \"task\" (and \"kind\") to the line")
        if candidates:
            item = candidates[0]
            key = (item.kind, item.task, item.id)
            if key in out:
                raise AcpDataError(f"{source}: line {row['_line']}: id {rid} "
                                   f"({item.kind}/{item.task}) was answered already on line "
                                   f"{lines[key]}; give each question one response")
            out[key] = row["response"]
            lines[key] = row["_line"]
    return out


def grade_answer(item: AcpItem, response: object, deadline: Deadline, *,
                 rules: Rules = PAPER, max_states: int = MAX_STATES) -> Grade:
    """Grade one response to one question within ``deadline`` (made on :data:`CLOCK` by the
    caller); ``rules``: the definitions (:mod:`.gen`'s docstring); ``max_states``: the most
    states one search may generate.  Never raises for what the response or the question holds:
    a limit is ``timeout``, an unusable question ``invalid-input`` or ``unsupported``."""
    try:
        with deadline.applied(), collector_paused():  # grounding and validation look at it
            if item.kind == "gen":
                return score_gen(item, response, deadline, rules, max_states)
            return score_choice(item, response)
    except ResourceLimitError as err:
        return grades.timeout(f"no verdict within {deadline.seconds:g} s of {deadline.clock} "
                              f"time ({deadline.wall_limit_s:g} s of wall time): {err}")


#: The keys of every row of ``acp score``'s results file (what ``--resume`` checks it keeps).
ROW_KEYS = ("id", "task", "kind", "status", "correct", "score", "parseable", "answered",
            "bad_question", "reason", "seconds")


def answer_row(item: AcpItem, grade: Grade, seconds: float) -> dict:
    """One line of ``acp score``'s results file (:data:`ROW_KEYS`)."""
    return {"id": item.id, "task": item.task, "kind": item.kind, "status": str(grade.status),
            "correct": grade.correct, "score": grade.score, "parseable": grade.parseable,
            "answered": grade.answered, "bad_question": grade.bad_question,
            "reason": grade.reason, "seconds": round(seconds, 4)}
