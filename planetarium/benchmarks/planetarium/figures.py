"""The Planetarium benchmark's figures: the paper's, redrawn from any set of graded runs, with
their uncertainty on them (:mod:`planetarium.presentation.plots`), and the error categories.

- ``overall.png`` (Figure 3): parseable / solvable / correct per run, zero-shot next to the
  fine-tuned run of the same base model;
- ``domains.png`` (Figure 4): the same per domain, plus correctness with relaxed typing;
- ``abstractness.png`` and ``size.png``: correctness per abstractness class and per size bin,
  one panel per domain, one bar per run;
- ``funnel.png``: how many items survive each stage, parseable → solvable → correct;
- ``categories.png``: the share of answers in each error category, overall and per domain.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...presentation.plots import Figure, bars, panels, pyplot, save
from ...presentation.tables import Axis, ReportRun, cells
from .report import AXES, CATEGORY_COLUMNS, CORRECT, category_rates, rate
from .verdicts import STAGES

STAGE_COLOURS = {"parseable": "#4c72b0", "solvable": "#dd8452", "correct": "#55a868",
                 "correct (relaxed typing)": "#8172b3"}


def _domains(runs: Sequence[ReportRun]) -> list[str]:
    return AXES["domain"].universe([row for run in runs for row in run.rows])


def plot_overall(runs: Sequence[ReportRun], path: Path) -> None:
    """Figure 3: stage rates per run (strict typing)."""
    plt = pyplot()
    fig, axis = plt.subplots(figsize=(max(5.0, 1.9 * len(runs) + 2), 4.2))
    series = {stage: [rate(run.rows, "strict", stage) for run in runs] for stage in STAGES}
    colours = bars(axis, [f"{run.label}\n({run.setting})" for run in runs], series,
                   STAGE_COLOURS)
    for x, run in enumerate(runs):
        if run.rows and not series["parseable"][x].k:  # say so, rather than show blank space
            axis.text(x, 55, "nothing parseable\n(why: see report.md)", ha="center",
                      va="center", fontsize=8, color="0.35")
    axis.set_title("Performance on the selected items (strict typing)")
    save(fig, path, plt, colours)


def plot_domains(runs: Sequence[ReportRun], path: Path) -> None:
    """Figure 4: one panel per domain; per run, strict stages and relaxed correctness."""
    plt = pyplot()
    domains = _domains(runs)
    fig, axes = panels(plt, len(domains), max(4.5, 2.0 * len(runs) + 1.5), 4.0)
    colours: dict[str, str] = {}
    for axis, domain in zip(axes, domains, strict=True):
        subsets = [[row for row in run.rows if row["domain"] == domain] for run in runs]
        series = {stage: [rate(rows, "strict", stage) for rows in subsets] for stage in STAGES}
        series["correct (relaxed typing)"] = [rate(rows, "relaxed", "correct") for rows in subsets]
        colours = bars(axis, [run.label for run in runs], series, STAGE_COLOURS)
        axis.set_title(domain)
    save(fig, path, plt, colours)


def plot_correct_by(runs: Sequence[ReportRun], axis_spec: Axis, path: Path) -> None:
    """Correctness (strict typing) per value of ``axis_spec``, one panel per domain, one bar
    per run: the paper's abstractness and size breakdowns."""
    plt = pyplot()
    domains = _domains(runs)
    everything = [row for run in runs for row in run.rows]
    values = axis_spec.universe(everything)
    fig, axes = panels(plt, len(domains), max(6.0, 0.45 * len(values) * len(runs) + 2.5), 3.4)
    colours: dict[str, str] = {}
    for axis, domain in zip(axes, domains, strict=True):
        series = {}
        for run in runs:
            in_domain = [row for row in run.rows if row["domain"] == domain]
            grouped = cells(in_domain, [axis_spec], everything)
            series[run.label] = [rate(members, "strict", "correct") for _, members in grouped]
        colours = bars(axis, values, series)
        axis.set_title(f"{domain}: correct by {axis_spec.name} (strict typing)", fontsize=10)
    save(fig, path, plt, colours)


def plot_funnel(runs: Sequence[ReportRun], path: Path) -> None:
    """parseable → solvable → correct per run: each bar is what survives the stage, with the
    share of the previous stage that made it through."""
    plt = pyplot()
    fig, axes = plt.subplots(len(runs), 1, figsize=(7, 1.7 * len(runs) + 0.6), squeeze=False)
    for axis, run in zip(axes[:, 0], runs, strict=True):
        n = len(run.rows)
        counts = [rate(run.rows, "strict", stage).k for stage in STAGES]
        for y, (stage, k) in enumerate(zip(STAGES, counts, strict=True)):
            axis.barh(y, n, color="0.93", height=0.7)  # every graded item: what was lost shows
            axis.barh(y, k, left=(n - k) / 2, color=STAGE_COLOURS[stage], height=0.7)
            previous = n if y == 0 else counts[y - 1]
            share = (f"{100 * k / previous:.0f}% of {'all' if y == 0 else STAGES[y - 1]}"
                     if previous else "none left")
            text = f"{stage}: {k}/{n} ({share})"
            axis.text(n / 2, y, text, ha="center", va="center", fontsize=8,
                      bbox={"facecolor": "white", "alpha": 0.7, "edgecolor": "none"})
        axis.set_xlim(0, max(n, 1))
        axis.set_ylim(len(STAGES) - 0.5, -0.5)
        axis.set_yticks([])
        axis.set_xticks([])
        axis.set_title(f"{run.label} ({run.setting}), {n} items, strict typing",
                       fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


#: The categories' tick labels (two lines each, plus n), in points: readable at the PNG's size.
TICK_POINTS = 9


def plot_categories(runs: Sequence[ReportRun], path: Path) -> None:
    """One panel for all domains and one per domain; a bar per run and category, with its
    95% interval (drawn like the report's other figures)."""
    plt = pyplot()
    domains = _domains(runs)
    groups = [CORRECT, *CATEGORY_COLUMNS]
    # wide enough for TICK_POINTS labels: about an inch per category, more with more runs
    fig, axes = panels(plt, 1 + len(domains),
                       max(8.0, len(groups) * (1.1 + 0.3 * (max(1, len(runs)) - 1))), 4.8)
    colours: dict[str, str] = {}
    for axis, domain in zip(axes, [None, *domains], strict=True):
        series = {run.label: list(category_rates([row for row in run.rows
                                                  if domain is None or row["domain"] == domain]))
                  for run in runs}
        colours = bars(axis, [g.replace("-", "-\n").replace(" ", "\n") for g in groups], series)
        axis.set_title(f"error categories: {domain or 'all domains'}")
        axis.tick_params(axis="x", labelsize=TICK_POINTS)
    save(fig, path, plt, colours)


#: The figures of a Planetarium report, in the order they are shown.
FIGURES: dict[str, Figure] = {
    "overall.png": plot_overall,
    "domains.png": plot_domains,
    "abstractness.png": lambda runs, path: plot_correct_by(runs, AXES["abstractness"], path),
    "size.png": lambda runs, path: plot_correct_by(runs, AXES["size"], path),
    "funnel.png": plot_funnel,
    "categories.png": plot_categories,
}
