"""Checking every yes/no and multiple-choice label of a data folder, and the table it gives.

:func:`check_labels` learns the domains from the folder's generative records
(:func:`.english.learn`), then checks each yes/no and multiple-choice question
(:func:`.labels.check_label`, each under its own deadline), in a process pool when asked: each
question is independent and the searches are CPU-bound.  :func:`summarize` counts the outcomes
(:func:`.labels.label_outcome`) per kind, task and domain; ``checked`` is what a verdict was
reached on (true + false + ambiguous).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable

from ..limits import Deadline, Stopwatch
from ..reasoning import MAX_STATES
from .data import AcpItem
from .english import LearnedDomain, RecordCheck, learn
from .labels import OUTCOMES, check_label, label_outcome, label_row
from .score import CLOCK, SECONDS

COLUMNS = ("n", "checked") + OUTCOMES


def _check_job(item: AcpItem, known: dict[str, LearnedDomain], seconds: float,
               max_states: int) -> dict:
    watch = Stopwatch()
    check = check_label(item, known, Deadline.start(seconds, CLOCK), max_states=max_states)
    return label_row(item, check, watch.seconds)


def check_labels(items: Iterable[AcpItem], seconds: float = SECONDS,
                 max_states: int = MAX_STATES, workers: int = 1,
                 progress: bool = False) -> tuple[dict[str, LearnedDomain], list[dict]]:
    """The learned domains and one row per yes/no or multiple-choice question, in order; each
    question gets ``seconds`` (:data:`.score.CLOCK`); ``progress`` shows a labelled bar on
    standard error."""
    from tqdm import tqdm

    items = list(items)
    known = learn(items)
    questions = [i for i in items if i.kind in ("bool", "mcq")]
    check = functools.partial(_check_job, known=known, seconds=seconds, max_states=max_states)
    with tqdm(total=len(questions), desc="acp check-labels", unit="question",
              disable=not progress) as bar:
        if workers <= 1:
            rows = []
            for item in questions:
                rows.append(check(item))
                bar.update()
            return known, rows
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            rows = []
            for row in pool.map(check, questions, chunksize=8):
                rows.append(row)
                bar.update()
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
