"""Checking every yes/no and multiple-choice label of a data folder, and the table it gives.

:func:`check_labels` learns the domains from the folder's generative records
(:func:`.english.learn`), then checks each yes/no and multiple-choice question
(:func:`.labels.check_label`, each under its own deadline) on the one item loop: each question
is independent and the searches are CPU-bound.  :func:`summarize` counts the outcomes
(:func:`.labels.label_outcome`) per kind, task and domain; ``checked`` is what a verdict was
reached on (true + false + ambiguous).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..grading import Status
from ..limits import Deadline, Stopwatch
from ..loop import run_items
from ..pool import Lost, LostKind
from ..reasoning import MAX_STATES
from .data import AcpItem
from .english import LearnedDomain, RecordCheck, domain_of, learn
from .labels import OUTCOMES, LabelCheck, check_label, label_outcome, label_row
from .score import CLOCK, SECONDS

COLUMNS = ("n", "checked") + OUTCOMES


class LabelTask:
    """The item loop's task for ``acp check-labels``: one question's label checked under the
    deadline the loop made for it (on :data:`.score.CLOCK`)."""

    def __init__(self, known: dict[str, LearnedDomain], max_states: int = MAX_STATES) -> None:
        self.known, self.max_states = known, max_states

    def __call__(self, item: AcpItem, deadline: Deadline) -> dict:
        watch = Stopwatch()
        check = check_label(item, self.known, deadline, max_states=self.max_states)
        return label_row(item, check, watch.seconds)


class LostLabel:
    """The row of a question whose worker was killed past its limit (``timeout``), died, or
    hit a checker bug (``internal-error``): no verdict, never a wrong one."""

    def __init__(self, known: dict[str, LearnedDomain], seconds: float) -> None:
        self.known, self.seconds = known, seconds
        self.wall_limit_s = Deadline.start(seconds, CLOCK).wall_limit_s

    def __call__(self, item: AcpItem, lost: Lost) -> dict:
        domain = domain_of(item.context, self.known)
        name = None if domain is None else domain.name
        if lost.kind is LostKind.TIMEOUT:
            check = LabelCheck(Status.TIMEOUT, None, f"no verdict within {self.seconds:g} s of "
                               f"{CLOCK} time ({self.wall_limit_s:g} s of wall time; worker "
                               "killed)", name)
            return label_row(item, check, self.wall_limit_s)
        return label_row(item, LabelCheck(Status.INTERNAL_ERROR, None,
                                          f"internal error: {lost.why}", name), 0.0)


def check_labels(items: Iterable[AcpItem], seconds: float = SECONDS,
                 max_states: int = MAX_STATES, workers: int | None = 1,
                 progress: bool = False) -> tuple[dict[str, LearnedDomain], list[dict]]:
    """The learned domains and one row per yes/no or multiple-choice question, in order.

    The questions run on the one item loop (:mod:`planetarium.loop`) in ``workers`` processes
    (``None``: usable CPUs), each under its own deadline of ``seconds`` (:data:`.score.CLOCK`),
    killed past its wall-time limit (``timeout``); ``progress`` shows a labelled bar on
    standard error."""
    items = list(items)
    known = learn(items)
    questions = [i for i in items if i.kind in ("bool", "mcq")]
    rows = list(run_items(LabelTask(known, max_states), questions, timeout_s=seconds,
                          lost=LostLabel(known, seconds), clock=CLOCK, workers=workers,
                          progress=progress, label="acp check-labels", unit="question"))
    return known, rows


def summarize(rows: list[dict], by: tuple[str, ...] = ("kind", "task", "domain")) -> list[dict]:
    """Outcome counts per group (``by``: any of kind, task, domain), sorted."""
    groups: dict[tuple, Counter] = {}
    for row in rows:
        key = tuple(str(row.get(k)) for k in by)
        groups.setdefault(key, Counter())[label_outcome(row)] += 1
    out = []
    for key, counts in sorted(groups.items()):
        line: dict = dict(zip(by, key, strict=True))
        line["n"] = sum(counts.values())
        line["checked"] = counts["true"] + counts["false"] + counts["ambiguous"]
        line.update({outcome: counts[outcome] for outcome in OUTCOMES})
        out.append(line)
    return out


def format_table(summary: list[dict], by: tuple[str, ...]) -> str:
    widths = {"kind": 5, "task": 7, "domain": 17}
    head = " ".join(f"{k:{widths[k]}}" for k in by) + " " + " ".join(f"{c:>12}" for c in COLUMNS)
    lines = [head]
    for row in summary:
        lines.append(" ".join(f"{row[k]:{widths[k]}}" for k in by) + " "
                     + " ".join(f"{row[c]:>12}" for c in COLUMNS))
    return "\n".join(lines)


def reader_lines(known: dict[str, LearnedDomain]) -> list[str]:
    """One line per domain: how its reader did on the generative records."""
    lines = []
    for name, domain in known.items():
        verdicts = ", ".join(f"{k} {domain.count(k)}" for k in RecordCheck if domain.count(k))
        actions = ", ".join(f"{k} {len(v)}" for k, v in sorted(domain.action_checks.items()))
        state = "supported" if domain.supported else f"UNCHECKED: {domain.why_unsupported()}"
        lines.append(f"{name:17} {domain.records:>3} generative records: {verdicts}; "
                     f"described actions: {actions or 'none'}; {state}")
    return lines


def domain_report(known: dict[str, LearnedDomain]) -> dict[str, dict]:
    """The reader's verdicts per domain, for the JSON report."""
    return {name: {"supported": d.supported,
                   "why_unsupported": None if d.supported else d.why_unsupported(),
                   "records": {str(k): len(v) for k, v in d.verdicts.items()},
                   "not_exact": {str(k): [{"id": i, "why": w} for i, w in v]
                                 for k, v in d.verdicts.items() if k is not RecordCheck.EXACT},
                   "action_checks": {str(k): len(v) for k, v in d.action_checks.items()},
                   "action_descriptions": len(d.actions), "atom_descriptions": len(d.atoms)}
            for name, d in known.items()}
