"""Grading answers: one answer under one deadline, and a responses file against a data folder.

:func:`grade_answer` is the per-answer entry point: one question, one response, one
:class:`~planetarium.limits.Deadline` (the benchmark's clock is CPU time, so that a busy machine
grades slower but never differently), and a :class:`~.grades.Grade` back, whatever the response
holds.  :func:`grade_all` grades a whole selection, one row per question, on the one item loop
(:mod:`planetarium.loop`: worker processes, a hard kill past the limit, input order).

Published ids repeat across tasks (the same id can be a landmark and a reachability question),
so a response may carry ``task`` to say which question it answers; a bare ``id`` that matches
questions of several tasks is refused with the line that holds it rather than guessed, and so
is a second response to the same question.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..errors import ResourceLimitError
from ..jsonl import JsonLineError, decode, numbered_lines
from ..limits import Clock, Deadline, Stopwatch, collector_paused
from ..loop import run_items
from ..pool import Lost, LostKind
from ..reasoning import MAX_STATES
from . import grades
from .choice import score_choice
from .data import AcpDataError, AcpItem
from .gen import PAPER, Rules, score_gen
from .grades import Grade

#: CPU seconds one answer may take by default (``acp score --seconds``).
SECONDS = 20.0
#: What the ACP grader's deadlines count: CPU time of the grading process.
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


class AnswerTask:
    """The item loop's task for ``acp score``: one (question, answered, response) job graded
    under the deadline the loop made for it (on :data:`CLOCK`)."""

    def __init__(self, rules: Rules = PAPER, max_states: int = MAX_STATES) -> None:
        self.rules, self.max_states = rules, max_states

    def __call__(self, job: tuple[AcpItem, bool, object], deadline: Deadline) -> dict:
        item, answered, response = job
        if not answered:
            return answer_row(item, grades.missing(), 0.0)
        watch = Stopwatch()
        grade = grade_answer(item, response, deadline, rules=self.rules,
                             max_states=self.max_states)
        return answer_row(item, grade, watch.seconds)


class LostAnswer:
    """The row of a question whose worker was killed past its limit (``timeout``: a limit is
    never a wrong answer), died, or hit a grader bug (``internal-error``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.wall_limit_s = Deadline.start(seconds, CLOCK).wall_limit_s

    def __call__(self, job: tuple[AcpItem, bool, object], lost: Lost) -> dict:
        if lost.kind is LostKind.TIMEOUT:
            grade = grades.timeout(f"no verdict within {self.seconds:g} s of {CLOCK} time "
                                   f"({self.wall_limit_s:g} s of wall time; worker killed)")
            return answer_row(job[0], grade, self.wall_limit_s)
        return answer_row(job[0], grades.internal_error(lost.why), 0.0)


def grade_all(items: list[AcpItem], responses: dict[tuple[str, str, str], object],
              rules: Rules = PAPER, seconds: float = SECONDS, max_states: int = MAX_STATES,
              workers: int | None = 1, progress: bool = False, skip: int = 0) -> Iterator[dict]:
    """A row per question, in order; a question without a response scores 0 (not answered).
    ``skip``: the first questions, whose rows a resumed run already holds, are not graded.

    The questions run on the one item loop (:mod:`planetarium.loop`) in ``workers`` processes
    (``None``: usable CPUs): each answer gets its own deadline of ``seconds`` of :data:`CLOCK`
    time, and a worker silent past that deadline's wall-time limit is killed (``timeout``).
    ``progress`` shows a labelled bar on standard error.
    """
    keys = [(item.kind, item.task, item.id) for item in items]
    jobs = [(item, key in responses, responses.get(key))
            for item, key in zip(items, keys, strict=True)]
    return run_items(AnswerTask(rules, max_states), jobs, timeout_s=seconds,
                     lost=LostAnswer(seconds), clock=CLOCK, workers=workers, progress=progress,
                     label="acp score", unit="question", skip=skip)
