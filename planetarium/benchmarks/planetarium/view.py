"""The Planetarium benchmark's pages in the run viewer (``eval view``).

An item is indexed by domain, abstractness class and size; its page gives the description and,
below the answers, the ground truth.  Each run's answer shows where it stopped under strict
typing (the paper's headline: ``correct``, ``not parseable``, ``unsolvable``, ``not
equivalent``, or ``undecided (timeout)`` and the like), its error categories, the grader's
explanation, the four states (ground truth and answer, initial state and goal) drawn with the
differences marked, and one row per grading mode with each stage's answer and reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dataset.splits import size_bin
from ...presentation.pages import (
    CORRECT,
    FAILED_FIRST,
    FAILED_LAST,
    FAILED_MIDDLE,
    NONE,
    UNDECIDED,
    AnswerView,
    Cell,
    Code,
    Explanation,
    Grid,
    ItemView,
    Note,
    Scenes,
    Section,
    Text,
)
from .report import abstractness
from .verdicts import ALL_MODES, passed

Row = dict[str, Any]
#: The grading mode the index and the badge follow (the paper's headline).
MAIN_MODE = "strict"
#: The grader's stages, the verdict field each decides, and what an answer that fails it is.
_STAGES = (("parse", "parseable", "not parseable", FAILED_FIRST),
           ("solve", "solvable", "unsolvable", FAILED_MIDDLE),
           ("equivalence", "equivalent", "not equivalent", FAILED_LAST))


def item_view(item: Row) -> ItemView:
    domain = str(item.get("domain", ""))
    facets = {"domain": domain, "abstractness": abstractness(item), "size": size_bin(item)}
    fields = (*((k, v) for k, v in facets.items() if k != "size"),
              ("size (init + goal propositions)", facets["size"]),
              ("placeholder", "yes" if item.get("is_placeholder") else "no"),
              ("problem name", str(item.get("name", ""))))
    search = " ".join([str(item.get("id", "")), str(item.get("name", "")), domain,
                       str(item.get("natural_language", ""))])
    return ItemView(facets=facets, search=search, fields=tuple(fields),
                    question=(Text("Description", str(item.get("natural_language", ""))),),
                    reference=(Code("Ground truth", str(item.get("problem_pddl", ""))),))


def status(verdict: Row | None) -> tuple[str, str]:
    """Where one mode's verdict stopped, and the badge's tone."""
    if verdict is None:
        return "not graded", NONE
    if passed(verdict, "correct"):
        return "correct", CORRECT
    for _, field, failed, tone in _STAGES:
        if verdict.get(field) is False:
            return failed, tone
        if verdict.get(field) is None:
            return f"undecided ({verdict.get('status') or 'no verdict'})", UNDECIDED
    return "correct", CORRECT


def _verdicts(row: Row) -> Mapping[str, Row]:
    return {mode: row[mode] for mode in ALL_MODES if isinstance(row.get(mode), dict)}


def answer_view(row: Row, answer: str) -> AnswerView:
    verdicts = _verdicts(row)
    main = verdicts.get(MAIN_MODE)
    shown, tone = status(main)
    explanation = main.get("explanation") if main else None
    explanation = explanation if isinstance(explanation, dict) else None
    found = explanation.get("categories") if explanation else None
    categories = tuple(str(c) for c in found) if isinstance(found, list) else ()
    sections: list[Section] = [
        Explanation("Explanation", explanation),
        Scenes("Scenes", str(row.get("problem_pddl", "")), answer, explanation),
        _verdict_grid(verdicts),
    ]
    first = next(iter(verdicts.values()), {})
    if first.get("stage") not in {stage for stage, *_ in _STAGES} and first.get("reason"):
        sections.append(Note(f"{first.get('stage')}: {first.get('reason')}"))
    return AnswerView(status=shown, tone=tone, categories=categories, sections=tuple(sections))


def _verdict_grid(verdicts: Mapping[str, Row]) -> Grid:
    """One row per grading mode, one cell per stage: its answer and its own reason."""
    rows = tuple((mode, tuple(_stage_cell(verdict, stage, field) for stage, field, *_ in _STAGES))
                 for mode, verdict in verdicts.items())
    return Grid("Verdicts", ("mode", *(field for _, field, *_ in _STAGES)), rows, name="verdicts")


_ANSWERS: dict[Any, str] = {True: "yes", False: "no"}


def _stage_cell(verdict: Row, stage: str, field: str) -> Cell:
    """``yes`` / ``no`` / ``undecided`` (or ``skipped``), with the stage's reason under it."""
    own = verdict.get("stages", {}).get(stage) if isinstance(verdict.get("stages"), dict) else None
    if isinstance(own, dict):
        state, reason = str(own.get("status", "")), str(own.get("reason") or "")
    else:  # a verdict without per-stage detail: only the settling stage has a reason
        state = str(verdict.get("status", "")) if verdict.get("stage") == stage else ""
        reason = str(verdict.get("reason") or "") if verdict.get("stage") == stage else ""
    value = _ANSWERS.get(verdict.get(field))
    shown = value or ("skipped" if state == "skipped" else f"undecided ({state or 'not run'})")
    return Cell(shown, reason)
