"""One graded ACPBench answer: the shared :class:`~planetarium.grading.Status` and what is not a
status (right or wrong, readable or not, answered at all, a bad question).

* ``DECIDED``: the answer is right (``correct`` True) or wrong (False) — an unparseable answer
  (``parseable`` False) and a missing one (``answered`` False) are wrong;
* ``TIMEOUT``: a search ran out of its deadline or state budget (``correct`` None: a limit is
  never a wrong answer);
* ``INVALID_INPUT``: the question itself is unusable — its PDDL cannot be read, its text lacks
  what the task needs, or its premise is false (``bad_question``: the goal is unreachable, the
  quoted plan has no inapplicable action, ...), with the proof in ``reason``;
* ``UNSUPPORTED``: the question's PDDL is valid but outside what is decided (ADL over fluents,
  a compilation past its bound);
* ``INTERNAL_ERROR``: the grader itself failed on the question (a bug, or its worker died).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..grading import Status


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer (see the module docstring)."""

    status: Status
    correct: bool | None
    reason: str
    parseable: bool | None = True
    answered: bool = True
    bad_question: bool = False

    @property
    def score(self) -> float | None:
        """1.0 or 0.0 when decided, ``None`` otherwise (the published harness's score)."""
        return None if self.correct is None else float(self.correct)


def outcome(row: dict) -> str:
    """One word for tables, from a result row (``acp score``'s, :func:`.score.answer_row`):
    correct, wrong, unparseable, missing, bad-question, or the status (timeout,
    invalid-input, unsupported, internal-error)."""
    if row.get("status") == Status.DECIDED.value:
        if row.get("answered") is False:
            return "missing"
        if row.get("parseable") is False:
            return "unparseable"
        return "correct" if row.get("correct") else "wrong"
    return "bad-question" if row.get("bad_question") else str(row.get("status"))


def right(reason: str) -> Grade:
    return Grade(Status.DECIDED, True, reason)


def wrong(reason: str) -> Grade:
    return Grade(Status.DECIDED, False, reason)


def unparseable(reason: str) -> Grade:
    return Grade(Status.DECIDED, False, reason, parseable=False)


def missing() -> Grade:
    return Grade(Status.DECIDED, False, "no response for this question", parseable=None,
                 answered=False)


def timeout(reason: str) -> Grade:
    return Grade(Status.TIMEOUT, None, reason)


def internal_error(reason: str) -> Grade:
    """The grader failed on this question (a bug, or its worker died): no verdict."""
    return Grade(Status.INTERNAL_ERROR, None, f"internal error: {reason}", parseable=None)


def invalid(reason: str) -> Grade:
    """The question is unusable (its PDDL or text)."""
    return Grade(Status.INVALID_INPUT, None, reason, parseable=None)


def unsupported(reason: str) -> Grade:
    return Grade(Status.UNSUPPORTED, None, reason, parseable=None)


def bad_question(reason: str) -> Grade:
    """The question's premise is false; ``reason`` carries the proof."""
    return Grade(Status.INVALID_INPUT, None, f"bad question: {reason}", parseable=None,
                 bad_question=True)
