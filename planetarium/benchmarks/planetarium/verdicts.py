"""The Planetarium benchmark's verdict vocabulary: its grading modes and its stage chain.

Every answer is graded in several *modes* (strict typing, relaxed typing, anchored names); each
mode's verdict holds ``parseable``, ``solvable`` and ``equivalent`` as true, false or null
(undecided: a time limit, an unsupported feature).  The stages form a chain: *solvable* counts
verdicts that parse and are solvable, *correct* those also equivalent to the ground truth.  The
benchmark (:mod:`.benchmark`) and its report, figures and viewer pages (:mod:`.report`,
:mod:`.figures`, :mod:`.view`) read verdicts through this module only.
"""

from __future__ import annotations

from typing import Any

#: The stage chain of one verdict: *solvable* counts answers that parse and are solvable,
#: *correct* those also equivalent to the ground truth.
STAGES = ("parseable", "solvable", "correct")
_CHAIN = {
    "parseable": ("parseable",),
    "solvable": ("parseable", "solvable"),
    "correct": ("parseable", "solvable", "equivalent"),
}
MODES = {"strict": False, "relaxed": True}
#: Also graded, with strict typing and the objects the description names anchored; kept apart
#: from MODES so reports built on MODES are unchanged.
ANCHORED = "anchored"
ALL_MODES = {**MODES, ANCHORED: False}
#: ``stages``: each stage's own status and reason (the run viewer shows them all).
VERDICT_KEYS = ("parseable", "solvable", "equivalent", "correct", "status", "stage", "reason",
                 "stages")


def passed(verdict: dict[str, Any], stage: str) -> bool:
    """Whether one mode's verdict passes ``stage`` and every stage before it (a null counts as
    not passed: a rate is never inflated by a guess)."""
    return all(verdict.get(name) is True for name in _CHAIN[stage])


def undecided(verdict: dict[str, Any]) -> bool:
    """A null in the chain before any false: the grader could not say (time limit, ...)."""
    for name in _CHAIN["correct"]:
        if verdict.get(name) is False:
            return False
        if verdict.get(name) is None:
            return True
    return False
