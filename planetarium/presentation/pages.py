"""What the run viewer shows of an item and of each run's answer, as plain data.

A benchmark describes its pages with the small section types below
(:meth:`Benchmark.view_item`, :meth:`Benchmark.view_answer`); ``planetarium eval view`` renders
them, escaping every string, so a benchmark writes no HTML and imports nothing of the viewer.
Two section types carry the grader's own data for benchmarks whose answers are PDDL problems:
:class:`Explanation` (an explanation in the schema of :mod:`planetarium.equivalence.explain`)
and :class:`Scenes` (the ground truth's and the answer's states drawn side by side, with the
explanation's differences marked).

The defaults read only the shared result schema: the item page shows the prompt (the chat the
model answered) and, where the benchmark names one, the reference answer; each answer shows its
status, reason, metrics and groups.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..grading import Status
from .tables import chain_passed

Row = dict[str, Any]


@dataclass(frozen=True)
class Text:
    """A paragraph kept as written (line breaks too)."""

    title: str
    text: str


@dataclass(frozen=True)
class Note:
    """A muted remark, no heading."""

    text: str


@dataclass(frozen=True)
class Code:
    """Preformatted text (PDDL, JSON), cut on the page past the viewer's length limit."""

    title: str
    text: str


@dataclass(frozen=True)
class Fields:
    """Name: value pairs."""

    title: str
    pairs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Cell:
    """A table cell: its value in bold and, under it, a detail (a stage's reason)."""

    value: str
    detail: str = ""


@dataclass(frozen=True)
class Grid:
    """A table; each row has a ``key`` (the page marks the row with it, ``data-key``) and one
    cell per column after the first, which shows the key.  ``name`` classes the table."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Cell, ...]], ...]
    name: str = ""


@dataclass(frozen=True)
class Chat:
    """A conversation: (role, text) turns."""

    title: str
    turns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Explanation:
    """A grader's explanation (``planetarium.equivalence.explain`` schema) in words."""

    title: str
    explanation: Mapping[str, Any] | None


@dataclass(frozen=True)
class Scenes:
    """The states of the ground-truth problem ``truth`` and the answer's problem ``answer``
    (PDDL), initial state and goal, drawn with ``explanation``'s differences marked."""

    title: str
    truth: str
    answer: str
    explanation: Mapping[str, Any] | None


Section = Text | Note | Code | Fields | Grid | Chat | Explanation | Scenes

#: How an answer's status badge is coloured: its tone.
CORRECT, UNDECIDED, NONE = "correct", "undecided", "none"
#: Failed the first metric of the chain, one in between, or the last (the answer got far).
FAILED_FIRST, FAILED_MIDDLE, FAILED_LAST = "failed-first", "failed-middle", "failed-last"
TONES = (CORRECT, FAILED_FIRST, FAILED_MIDDLE, FAILED_LAST, UNDECIDED, NONE)


@dataclass(frozen=True)
class ItemView:
    """An item on the index and its page.

    ``facets``: the index's columns and filters (name -> value); ``search``: what the index's
    search box matches; ``fields``: facts listed at the top of the page; ``question``: sections
    above the runs' answers; ``reference``: sections below them (the expected answer).
    """

    facets: Mapping[str, str]
    search: str
    fields: tuple[tuple[str, str], ...] = ()
    question: tuple[Section, ...] = ()
    reference: tuple[Section, ...] = ()


@dataclass(frozen=True)
class AnswerView:
    """One run's answer to an item: ``status`` (a short phrase: the index column and filter,
    and the badge), its ``tone`` (one of :data:`TONES`), the ``categories`` the index filters
    by, and the sections of its column on the item page (the model's answer itself follows
    them)."""

    status: str
    tone: str
    categories: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()


def yes_no(value: Any) -> str:
    return {True: "yes", False: "no"}.get(value, "—")


def default_item_view(item: Row, groups: Mapping[str, Any],
                      prompt: Callable[[], Sequence[Mapping[str, str]]],
                      reference: str) -> ItemView:
    """The breakdown groups as facets, the prompt as a chat (or why it cannot be shown) and
    the reference answer, when there is one."""
    facets = {str(k): str(v) for k, v in groups.items()}
    try:
        question: Section = Chat("Prompt", tuple((str(m.get("role", "")), str(m.get("content", "")))
                                                 for m in prompt()))
    except Exception as err:  # a moved prompts folder must not cost the page
        question = Note(f"The prompt cannot be rebuilt: {type(err).__name__}: {err}")
    return ItemView(facets=facets, search=" ".join([str(item.get("id", "")), *facets.values()]),
                    question=(question,),
                    reference=(Code("Reference answer", reference),) if reference else ())


def chain_status(row: Row, chain: Sequence[str]) -> tuple[str, str]:
    """``(status, tone)`` of a result from the shared schema: ``correct``, ``not METRIC`` for the
    first metric of the chain it fails, ``undecided (STATUS)`` when grading decided nothing."""
    if row.get("status") != Status.DECIDED.value:
        return f"undecided ({row.get('status') or 'no verdict'})", UNDECIDED
    if row.get("correct") is True:
        return "correct", CORRECT
    metrics = row.get("metrics") or {}
    for index, metric in enumerate(chain):
        if not chain_passed(metrics, chain, metric):
            tone = (FAILED_FIRST if index == 0 else FAILED_LAST if index == len(chain) - 1
                    else FAILED_MIDDLE)
            return f"not {metric}", tone
    return "not correct", FAILED_LAST


def default_answer_view(row: Row, chain: Sequence[str]) -> AnswerView:
    """Status from the metric chain; the verdict, the metrics and the groups as fields.  The
    status is said once, in the chain's words (the badge and the index's column and filter):
    the fields do not repeat the raw grading status ("decided") beside it."""
    status, tone = chain_status(row, chain)
    metrics = row.get("metrics") or {}
    verdict = (("correct", yes_no(row.get("correct"))),
               ("score", "—" if row.get("score") is None else f"{row['score']:g}"),
               ("reason", str(row.get("reason") or "")))
    sections: list[Section] = [Fields("Verdict", verdict)]
    if metrics:
        sections.append(Fields("Metrics", tuple((str(m), yes_no(v)) for m, v in metrics.items())))
    if row.get("groups"):
        sections.append(Fields("Groups", tuple((str(k), str(v))
                                               for k, v in row["groups"].items())))
    return AnswerView(status=status, tone=tone, sections=tuple(sections))
