"""The Planetarium benchmark's report: the paper's tables, error categories and notes
(:mod:`.hooks` hands them to ``eval report``).

A run's rows hold one verdict per grading mode (:mod:`.verdicts`).  Tables give,
for strict and relaxed typing (and anchored names where graded), the stage rates overall and by
the paper's breakdowns — domain, abstractness class (explicit or abstract description of the
initial state, then of the goal) and size (initial + goal propositions of the ground truth, in
the bins of Table 1) — plus paired comparisons and the error categories of the strict verdicts
(:func:`planetarium.equivalence.explain.categorise`: what kind of wrong each answer is; an
answer may have several; verdicts without an explanation are *correct*, *undecided* or, for
runs graded without explanations, *not explained*).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...dataset import splits
from ...equivalence.explain import CATEGORIES
from ...presentation.stats import Rate
from ...presentation.tables import (
    Axis,
    ReportRun,
    Table,
    breakdown_table,
    common_reasons,
    paired_table,
)
from ...presentation.tables import item_key as whole_row
from .verdicts import ANCHORED, MODES, STAGES, passed, undecided

Row = dict[str, Any]

#: The dataset's abstractness classes as the report prints them (``explicit to abstract``).
ABSTRACTNESS_CLASSES = tuple(c.replace("_", " ") for c in splits.ABSTRACTION_CLASSES)
#: The paper's size bins (Table 1), as the dataset names them.
SIZE_BINS = tuple(splits.size_bins())


def abstractness(row: Row) -> str:
    """The paper's four classes, e.g. ``explicit to abstract`` (initial state, then goal)."""
    return splits.abstraction(row).replace("_", " ")


AXES = {
    "domain": Axis("domain", lambda row: row["domain"]),
    "abstractness": Axis("abstractness", abstractness, ABSTRACTNESS_CLASSES),
    "size": Axis("size", splits.size_bin, SIZE_BINS),
}
#: The rate tables' breakdowns, in order: overall, each axis, then the paper's cross panels.
BREAKDOWNS: tuple[tuple[Axis, ...], ...] = (
    (),
    (AXES["domain"],),
    (AXES["abstractness"],),
    (AXES["size"],),
    (AXES["domain"], AXES["abstractness"]),
    (AXES["domain"], AXES["size"]),
)
MODE_TITLES = {"strict": "strict typing", "relaxed": "relaxed typing",
               ANCHORED: "strict typing, objects the description names keep their names"}
#: The item fields that identify an item across runs (with its id).
ITEM_FIELDS = ("id", "domain", "natural_language", "problem_pddl", "is_placeholder")
HOW_TO_READ = (
    "Each rate is the share of graded items that passed the stage and every stage before it "
    "(parseable → solvable → correct), shown as `rate [95% Wilson interval] (passed/n)`; an "
    "undecided verdict (time limit, unsupported feature) counts as not passed and is counted in "
    "*undecided*. Paired comparisons use only the items both runs answered; the exact McNemar "
    "test looks at the items where exactly one of the two passed, and *p (Holm)* adjusts for the "
    "number of pairs compared at the same stage."
)


def rate(rows: Sequence[Row], mode: str, stage: str) -> Rate:
    """How many of ``rows`` pass ``stage`` under one grading mode."""
    return Rate(sum(passed(row[mode], stage) for row in rows), len(rows))


def n_undecided(rows: Sequence[Row], mode: str) -> int:
    return sum(undecided(row[mode]) for row in rows)


def item_key(item: Row) -> str:
    """An item's identity across runs: its id *and* its content, so two datasets that reuse an
    id for a different problem never pair up."""
    return whole_row({k: v for k, v in item.items() if k in ITEM_FIELDS})


def rate_table(runs: Sequence[ReportRun], mode: str, axes: Sequence[Axis]) -> Table:
    """Stage rates per run and per combination of ``axes`` (none: overall), with n and 95%
    Wilson intervals; combinations without items in a run show "no items"."""
    by = " × ".join(axis.name for axis in axes)
    name = "_".join(["by", *(axis.name for axis in axes)] if axes else ["overall"])
    title = f"{'By ' + by if axes else 'Overall'} ({MODE_TITLES[mode]})"
    return breakdown_table(f"{name}_{mode}", title, runs, axes, (*STAGES, "undecided"),
                           lambda rows: (*(rate(rows, mode, stage) for stage in STAGES),
                                         n_undecided(rows, mode)))


def modes_table(runs: Sequence[ReportRun], modes: Sequence[str]) -> Table:
    """Correct answers per run under each grading mode, side by side (same items, same n)."""
    return breakdown_table("correct_by_mode", "Correct under each grading mode", runs, (),
                           [MODE_TITLES[mode] for mode in modes],
                           lambda rows: tuple(rate(rows, mode, "correct") for mode in modes))


def _passes(mode: str, stage: str) -> Callable[[Row], bool]:
    return lambda row: passed(row[mode], stage)


def mode_paired_table(runs: Sequence[ReportRun], mode: str) -> Table | None:
    """Paired comparisons of every two runs at each stage, under one grading mode."""
    return paired_table(f"paired_{mode}", f"Paired comparisons ({MODE_TITLES[mode]})", runs,
                        item_key, {stage: _passes(mode, stage) for stage in STAGES})


# --- error categories ------------------------------------------------------------------------

CATEGORY_MODE = "strict"
CORRECT, UNDECIDED, UNEXPLAINED = "correct", "undecided", "not explained"
#: Table columns and figure bars, in order.
CATEGORY_COLUMNS = (*CATEGORIES, UNDECIDED, UNEXPLAINED)


def categories_of(verdict: Row) -> tuple[str, ...]:
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


def category_rates(rows: Sequence[Row]) -> tuple[Rate, ...]:
    """The share of ``rows`` in each category (correct first), strict verdicts."""
    found = [set(categories_of(row[CATEGORY_MODE])) for row in rows]
    return tuple(Rate(sum(c in f for f in found), len(rows)) for c in (CORRECT, *CATEGORY_COLUMNS))


def category_tables(runs: Sequence[ReportRun]) -> list[Table]:
    """Categories per run, and per run and domain (every domain of any run, "no items" where a
    run has none)."""
    note = "share of answers per error category, strict typing; an answer may have several"
    columns = (CORRECT, *CATEGORY_COLUMNS)
    return [breakdown_table(f"categories_{CATEGORY_MODE}", f"Error categories ({note})", runs,
                            (), columns, category_rates),
            breakdown_table(f"categories_by_domain_{CATEGORY_MODE}",
                            f"Error categories by domain ({note})", runs, [AXES["domain"]],
                            columns, category_rates)]


def paper_tables(runs: Sequence[ReportRun]) -> list[Table]:
    """Each grading mode, paired comparisons, the paper's breakdowns, the error categories."""
    # anchored verdicts exist for runs graded since name-anchored grading was added
    modes = [*MODES, *([ANCHORED] if all(ANCHORED in row for run in runs for row in run.rows)
                       else [])]
    tables = [modes_table(runs, modes)]
    for mode in modes:
        tables.append(rate_table(runs, mode, ()))
        comparisons = mode_paired_table(runs, mode)
        if comparisons is not None:
            tables.append(comparisons)
    tables += [rate_table(runs, mode, axes) for mode in MODES for axes in BREAKDOWNS[1:]]
    return tables + category_tables(runs)


def nothing_correct(run: ReportRun) -> str:
    """Where the answers stopped in the stage chain (strict typing) and what the grader said."""
    rows = run.rows
    parseable = rate(rows, "strict", "parseable").k
    solvable = rate(rows, "strict", "solvable").k
    return (f"Of {len(rows)} graded answers, {len(rows) - parseable} do not parse, "
            f"{parseable - solvable} parse but are not solvable and {solvable} are solvable but "
            f"not equivalent to the ground truth ({n_undecided(rows, 'strict')} undecided). "
            + common_reasons(row["strict"].get("reason") for row in rows))
