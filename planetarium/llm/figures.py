"""The paper's figures, redrawn from any set of graded runs, with their uncertainty on them.

Every bar carries its 95% Wilson interval as a whisker and its value as a number, and a cell
without items is drawn as a hatched "no items" bar, never as an empty slot that reads as 0%.

- ``overall.png`` (Figure 3): parseable / solvable / correct per run, zero-shot next to the
  fine-tuned run of the same base model;
- ``domains.png`` (Figure 4): the same per domain, plus correctness with relaxed typing;
- ``abstractness.png`` and ``size.png``: correctness per abstractness class and per size bin,
  one panel per domain, one bar per run;
- ``funnel.png``: how many items survive each stage, parseable → solvable → correct.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .breakdown import AXES, STAGES, Axis, cells, rate
from .stats import Rate
from .tables import ReportRun

STAGE_COLOURS = {"parseable": "#4c72b0", "solvable": "#dd8452", "correct": "#55a868",
                 "correct (relaxed typing)": "#8172b3"}
LEGEND_NOTE = "bars: % of items · whiskers: 95% Wilson interval · hatched: no items"


def _pyplot() -> Any:
    """Matplotlib on the Agg backend (no display needed), imported only when plotting."""
    from ..errors import require

    matplotlib = require("matplotlib", "report")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _tick(group: str, rates: Sequence[Rate]) -> str:
    """The group's name and its n (one n when every bar has the same)."""
    sizes = list(dict.fromkeys(r.n for r in rates))
    return f"{group}\nn={'/'.join(map(str, sizes))}"


def _bars(axis: Any, groups: Sequence[str], series: dict[str, list[Rate]],
          colours: dict[str, str] | None = None) -> dict[str, str]:
    """Grouped bars in percent, one group per entry of ``groups``, one bar per series; returns
    each series' colour for the legend."""
    width = 0.8 / len(series)
    font = 8 if len(groups) * len(series) <= 16 else 6
    used = {}
    for index, (name, rates) in enumerate(series.items()):
        colour = used[name] = (colours or {}).get(name, f"C{index}")
        for x, r in enumerate(rates):
            centre = x + (index - (len(series) - 1) / 2) * width
            if not r.n:
                axis.bar(centre, 100, width, fill=False, hatch="///", edgecolor="0.8",
                         linewidth=0)
                axis.text(centre, 50, "no items", rotation=90, ha="center", va="center",
                          fontsize=font, color="0.45")
                continue
            low, high = r.interval
            value = 100 * r.value
            axis.bar(centre, value, width, color=colour)
            axis.errorbar(centre, value, yerr=[[value - 100 * low], [100 * high - value]],
                          fmt="none", ecolor="0.2", elinewidth=0.8, capsize=2)
            axis.text(centre, 100 * high + 1.5, f"{value:.0f}", ha="center", va="bottom",
                      fontsize=font)
    ticks = [_tick(g, [rates[i] for rates in series.values()]) for i, g in enumerate(groups)]
    axis.set_xticks(range(len(groups)), ticks, fontsize=8)
    axis.set_ylim(0, 112)
    axis.set_yticks(range(0, 101, 20))
    axis.set_ylabel("% of items")
    return used


def _save(fig: Any, path: Path, plt: Any, colours: dict[str, str]) -> None:
    """Lay out, put the legend (and how to read the bars) above the panels, write the PNG."""
    from matplotlib.patches import Patch

    fig.tight_layout()
    handles = [Patch(color=colour, label=name) for name, colour in colours.items()]
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0),
               ncol=min(4, len(handles)), fontsize=8, frameon=False, title=LEGEND_NOTE,
               title_fontsize=7)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def plot_overall(runs: Sequence[ReportRun], path: Path) -> None:
    """Figure 3: stage rates per run (strict typing)."""
    plt = _pyplot()
    fig, axis = plt.subplots(figsize=(max(5.0, 1.9 * len(runs) + 2), 4.2))
    series = {stage: [rate(run.rows, "strict", stage) for run in runs] for stage in STAGES}
    colours = _bars(axis, [f"{run.label}\n({run.identity.setting})" for run in runs], series,
                    STAGE_COLOURS)
    for x, run in enumerate(runs):
        if run.rows and not series["parseable"][x].k:  # say so, rather than show blank space
            axis.text(x, 55, "nothing parseable\n(why: see report.md)", ha="center",
                      va="center", fontsize=8, color="0.35")
    axis.set_title("Performance on the selected items (strict typing)")
    _save(fig, path, plt, colours)


def _domains(runs: Sequence[ReportRun]) -> list[str]:
    return AXES["domain"].universe([row for run in runs for row in run.rows])


def _panels(plt: Any, n: int, width: float, height: float) -> tuple[Any, list[Any]]:
    """``n`` panels of ``width`` x ``height`` inches, two to a row; spare cells hidden."""
    columns = min(n, 2)
    rows = -(-n // columns)
    fig, grid = plt.subplots(rows, columns, figsize=(width * columns, height * rows),
                             squeeze=False)
    axes = list(grid.flat)
    for spare in axes[n:]:
        spare.set_visible(False)
    return fig, axes[:n]


def plot_domains(runs: Sequence[ReportRun], path: Path) -> None:
    """Figure 4: one panel per domain; per run, strict stages and relaxed correctness."""
    plt = _pyplot()
    domains = _domains(runs)
    fig, axes = _panels(plt, len(domains), max(4.5, 2.0 * len(runs) + 1.5), 4.0)
    colours: dict[str, str] = {}
    for axis, domain in zip(axes, domains, strict=True):
        subsets = [[row for row in run.rows if row["domain"] == domain] for run in runs]
        series = {stage: [rate(rows, "strict", stage) for rows in subsets] for stage in STAGES}
        series["correct (relaxed typing)"] = [rate(rows, "relaxed", "correct") for rows in subsets]
        colours = _bars(axis, [run.label for run in runs], series, STAGE_COLOURS)
        axis.set_title(domain)
    _save(fig, path, plt, colours)


def plot_correct_by(runs: Sequence[ReportRun], axis_spec: Axis, path: Path) -> None:
    """Correctness (strict typing) per value of ``axis_spec``, one panel per domain, one bar
    per run: the paper's abstractness and size breakdowns."""
    plt = _pyplot()
    domains = _domains(runs)
    everything = [row for run in runs for row in run.rows]
    values = axis_spec.universe(everything)
    fig, axes = _panels(plt, len(domains), max(6.0, 0.45 * len(values) * len(runs) + 2.5), 3.4)
    colours: dict[str, str] = {}
    for axis, domain in zip(axes, domains, strict=True):
        series = {}
        for run in runs:
            in_domain = [row for row in run.rows if row["domain"] == domain]
            grouped = cells(in_domain, [axis_spec], everything)
            series[run.label] = [rate(members, "strict", "correct") for _, members in grouped]
        colours = _bars(axis, values, series)
        axis.set_title(f"{domain}: correct by {axis_spec.name} (strict typing)", fontsize=10)
    _save(fig, path, plt, colours)


def plot_funnel(runs: Sequence[ReportRun], path: Path) -> None:
    """parseable → solvable → correct per run: each bar is what survives the stage, with the
    share of the previous stage that made it through."""
    plt = _pyplot()
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
        axis.set_title(f"{run.label} ({run.identity.setting}), {n} items, strict typing",
                       fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


FIGURES = {
    "overall.png": plot_overall,
    "domains.png": plot_domains,
    "abstractness.png": lambda runs, path: plot_correct_by(runs, AXES["abstractness"], path),
    "size.png": lambda runs, path: plot_correct_by(runs, AXES["size"], path),
    "funnel.png": plot_funnel,
}
