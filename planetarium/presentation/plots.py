"""Drawing report figures: grouped bars of rates with their uncertainty on them.

Every bar carries its 95% Wilson interval as a whisker and its value as a number, and a cell
without items is drawn as a hatched "no items" bar, never as an empty slot that reads as 0%.
A benchmark's figures (:meth:`Benchmark.report_figures`) are drawn with these helpers;
matplotlib is imported only when a figure is drawn (extra ``[report]``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .stats import Rate
from .tables import ReportRun, cells, group_axis, metric_rate

#: Draws one figure of the given runs into a PNG file.
Figure = Callable[[Sequence[ReportRun], Path], None]
LEGEND_NOTE = "bars: % of items · whiskers: 95% Wilson interval · hatched: no items"


def pyplot() -> Any:
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


def bars(axis: Any, groups: Sequence[str], series: dict[str, list[Rate]],
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
            if r.interval is None or r.value is None:
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


def save(fig: Any, path: Path, plt: Any, colours: dict[str, str]) -> None:
    """Lay out, put the legend (and how to read the bars) above the panels, write the PNG."""
    from matplotlib.patches import Patch

    fig.tight_layout()
    handles = [Patch(color=colour, label=name) for name, colour in colours.items()]
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0),
               ncol=min(4, len(handles)), fontsize=8, frameon=False, title=LEGEND_NOTE,
               title_fontsize=7)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def panels(plt: Any, n: int, width: float, height: float) -> tuple[Any, list[Any]]:
    """``n`` panels of ``width`` x ``height`` inches, two to a row; spare cells hidden."""
    columns = min(n, 2)
    rows = -(-n // columns)
    fig, grid = plt.subplots(rows, columns, figsize=(width * columns, height * rows),
                             squeeze=False)
    axes = list(grid.flat)
    for spare in axes[n:]:
        spare.set_visible(False)
    return fig, axes[:n]


#: The most groups a breakdown may have to get a panel of :func:`breakdown_figure` (past it the
#: bars are too thin to read; the report's table still lists every group).
MAX_GROUPS = 30


def breakdown_figure(chain: Sequence[str], breakdowns: Sequence[Sequence[str]]) -> Figure:
    """The default figure of a benchmark: its last metric (``correct``) per group of each
    breakdown (one panel each, groups joined by ``/`` for a breakdown of several fields), one
    bar per run, each with its 95% Wilson interval.  Breakdowns of one or two fields get a
    panel when they have at most :data:`MAX_GROUPS` groups (finer ones stay in the tables)."""
    metric = chain[-1]

    def draw(runs: Sequence[ReportRun], path: Path) -> None:
        everything = [row for run in runs for row in run.rows]
        shown = []
        for fields in breakdowns:
            axes = [group_axis(name) for name in fields]
            groups = [combo for combo, _ in cells(everything, axes, everything,
                                                  every_combination=False)]
            if len(fields) <= 2 and 0 < len(groups) <= MAX_GROUPS:
                shown.append((fields, axes, groups))
        plt = pyplot()
        fig, axis_list = panels(plt, max(1, len(shown)), max(5.0, 0.7 * max(
            [len(g) * len(runs) for _, _, g in shown] or [4]) + 1.5), 3.8)
        colours: dict[str, str] = {}
        for axis, (fields, axes, groups) in zip(axis_list, shown, strict=False):
            series = {}
            for run in runs:
                members = dict(cells(run.rows, axes, everything, every_combination=False))
                series[run.label] = [metric_rate(members.get(g, []), chain, metric)
                                     for g in groups]
            colours = bars(axis, ["/".join(g) for g in groups], series)
            axis.set_title(f"{metric} by {' × '.join(fields)}", fontsize=9)
            axis.tick_params(axis="x", labelrotation=90 if len(groups) > 8 else 0)
        if not shown:
            axis_list[0].text(0.5, 0.5, "no graded items", ha="center", va="center")
        save(fig, path, plt, colours)

    return draw
