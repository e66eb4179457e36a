"""Error categories in ``eval report``: what kind of wrong each answer is, per run and domain.

Every verdict graded with explanations (``eval grade``, on by default) carries the categories
its explanation found (:func:`planetarium.equivalence.explain.categorise`): not parseable,
unsolvable, wrong object count, initial state differs, goal under-specified (the answer's fully
specified goal lacks facts), over-specified (adds facts), wrong goal (both), placeholder misuse
(the right goal arrangement on the wrong objects).  An answer may have several.  Verdicts
without an explanation are *correct*, *undecided* (time limit, unsupported feature) or, for
runs graded without explanations, *not explained*.

The table gives, per run (and per run and domain), the share of answers in each category with
n and its 95% Wilson interval, like every other rate in the report; the figure draws them.
Categories use the strict-typing verdicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..equivalence.explain import CATEGORIES
from .breakdown import AXES, cells, undecided
from .stats import Rate
from .tables import ReportRun, Table

MODE = "strict"
CORRECT, UNDECIDED, UNEXPLAINED = "correct", "undecided", "not explained"
#: Table columns and figure bars, in order.
COLUMNS = (*CATEGORIES, UNDECIDED, UNEXPLAINED)
FIGURE = "categories.png"


def categories_of(verdict: dict[str, Any]) -> tuple[str, ...]:
    """The categories of one verdict (see the module docstring)."""
    if verdict.get("correct"):
        return (CORRECT,)
    explanation = verdict.get("explanation")
    if explanation and explanation.get("categories"):
        return tuple(explanation["categories"])
    if undecided(verdict):
        return (UNDECIDED,)
    if verdict.get("parseable") is False:
        return ("not-parseable",)
    return (UNEXPLAINED,)


def _rates(rows: Sequence[dict[str, Any]]) -> list[Rate]:
    found = [set(categories_of(row[MODE])) for row in rows]
    return [Rate(sum(c in f for f in found), len(rows)) for c in (CORRECT, *COLUMNS)]


def category_tables(runs: Sequence[ReportRun]) -> list[Table]:
    """Categories per run, and per run and domain (every domain of any run, "no items" where a
    run has none)."""
    columns = ("n", CORRECT, *COLUMNS)
    overall = [(run.label, len(run.rows), *_rates(run.rows)) for run in runs]
    everything = [row for run in runs for row in run.rows]
    by_domain = [(run.label, domain, len(members), *_rates(members))
                 for run in runs for (domain,), members in cells(run.rows, [AXES["domain"]],
                                                                 everything)]
    note = "share of answers per error category, strict typing; an answer may have several"
    return [Table(f"categories_{MODE}", f"Error categories ({note})", ("run", *columns), overall),
            Table(f"categories_by_domain_{MODE}", f"Error categories by domain ({note})",
                  ("run", "domain", *columns), by_domain)]


#: The categories' tick labels (two lines each, plus n), in points: readable at the PNG's size.
TICK_POINTS = 9


def plot_categories(runs: Sequence[ReportRun], path: Path) -> None:
    """One panel for all domains and one per domain; a bar per run and category, with its
    95% interval (drawn like the report's other figures)."""
    from .figures import _bars, _domains, _panels, _pyplot, _save

    plt = _pyplot()
    domains = _domains(runs)
    groups = [CORRECT, *COLUMNS]
    # wide enough for TICK_POINTS labels: about an inch per category, more with more runs
    fig, axes = _panels(plt, 1 + len(domains),
                        max(8.0, len(groups) * (1.1 + 0.3 * (max(1, len(runs)) - 1))), 4.8)
    colours: dict[str, str] = {}
    for axis, domain in zip(axes, [None, *domains], strict=True):
        series = {run.label: _rates([row for row in run.rows
                                     if domain is None or row["domain"] == domain])
                  for run in runs}
        colours = _bars(axis, [g.replace("-", "-\n").replace(" ", "\n") for g in groups], series)
        axis.set_title(f"error categories: {domain or 'all domains'}")
        axis.tick_params(axis="x", labelsize=TICK_POINTS)
    _save(fig, path, plt, colours)
