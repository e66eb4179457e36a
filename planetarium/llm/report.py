"""Markdown tables and figures comparing graded runs, in the layout of the paper's Section 5.

Breakdowns follow the dataset's axes: domain, abstractness class (abstract or explicit initial
and goal description) and size (initial + goal propositions of the ground truth).  Figure 3 is
one group of bars per model; Figure 4 is the per-domain breakdown, strict vs relaxed typing.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from .grade import MODES, RESULTS, STAGES, VERDICTS
from .runner import ITEMS
from .store import RunDirError, read_jsonl

SIZE_EDGES = (0, 20, 40, 60, 80, math.inf)
MODE_TITLES = {"strict": "strict typing", "relaxed": "relaxed typing"}


@dataclass(frozen=True)
class GradedRun:
    """One run's label and its per-item rows (dataset fields joined with both verdicts)."""

    label: str
    rows: list[dict[str, Any]]


def size_bin(n_propositions: int) -> str:
    """``(lo,hi]`` bins of width 20 up to 80, then ``(80,inf)``."""
    for low, high in zip(SIZE_EDGES, SIZE_EDGES[1:]):
        if low < n_propositions <= high:
            return f"({low},{'inf)' if math.isinf(high) else f'{high}]'}"
    return "(-inf,0]"


def abstractness(row: dict[str, Any]) -> str:
    """The paper's four classes, e.g. ``explicit to abstract`` (initial state, then goal)."""
    kind = {True: "abstract", False: "explicit"}
    return f"{kind[bool(row['init_is_abstract'])]} to {kind[bool(row['goal_is_abstract'])]}"


GROUPINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "domain": lambda row: row["domain"],
    "abstractness": abstractness,
    "size": lambda row: size_bin(row["init_num_propositions"] + row["goal_num_propositions"]),
}


def load_run(run_dir: str | Path) -> GradedRun:
    """Join a graded run's items with their verdicts; ungraded runs are an error, not zeros."""
    run_dir = Path(run_dir)
    if not (run_dir / RESULTS).is_file():
        raise RunDirError(f"{run_dir}: not graded yet; run 'planetarium eval grade {run_dir}'")
    results = json.loads((run_dir / RESULTS).read_text(encoding="utf-8"))
    items = {str(row["id"]): row for row in read_jsonl(run_dir / ITEMS)}
    rows = [{**items[v["id"]], **v} for v in read_jsonl(run_dir / VERDICTS)]
    return GradedRun(label=results["name"], rows=rows)


def rates(rows: list[dict[str, Any]], mode: str) -> dict[str, float]:
    """Fraction of ``rows`` passing each stage under one typing mode."""
    if not rows:
        return {stage: 0.0 for stage in STAGES}
    return {stage: sum(bool(r[mode][stage]) for r in rows) / len(rows) for stage in STAGES}


def _table(header: list[str], lines: list[list[str]]) -> str:
    rule = ["---"] * len(header)
    return "\n".join("| " + " | ".join(cells) + " |" for cells in [header, rule, *lines])


def _rate_cells(rows: list[dict[str, Any]], mode: str) -> list[str]:
    return [f"{100 * value:.1f}%" for value in rates(rows, mode).values()]


def markdown_report(runs: list[GradedRun]) -> str:
    """Overall and per-group tables, each in strict and relaxed typing."""
    parts = ["# Planetarium evaluation report"]
    for mode in MODES:
        parts.append(f"## Overall ({MODE_TITLES[mode]})")
        lines = [[run.label, str(len(run.rows)), *_rate_cells(run.rows, mode)] for run in runs]
        parts.append(_table(["model", "n", *STAGES], lines))
        for grouping, key in GROUPINGS.items():
            parts.append(f"## By {grouping} ({MODE_TITLES[mode]})")
            lines = []
            for run in runs:
                for group in sorted({key(row) for row in run.rows}, key=_natural):
                    members = [row for row in run.rows if key(row) == group]
                    lines.append([run.label, group, str(len(members)), *_rate_cells(members, mode)])
            parts.append(_table(["model", grouping, "n", *STAGES], lines))
    return "\n\n".join(parts) + "\n"


def _natural(label: str) -> tuple:
    """Sort size bins numerically and everything else alphabetically."""
    head = label.strip("(").split(",")[0]
    return (0, float(head), label) if head.replace(".", "").isdigit() else (1, 0.0, label)


def _bars(axis: Any, labels: list[str], series: dict[str, list[float]]) -> None:
    """Grouped percentage bars, one group per label and one bar per series."""
    width = 0.8 / len(series)
    for index, (name, values) in enumerate(series.items()):
        xs = [x + (index - (len(series) - 1) / 2) * width for x in range(len(labels))]
        axis.bar(xs, [100 * v for v in values], width, label=name)
    axis.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    axis.set_ylim(0, 100)
    axis.set_ylabel("% of problems")


def plot_overall(runs: list[GradedRun], path: Path) -> None:
    """Figure 3 style: parseable / solvable / correct bars per model (strict typing)."""
    plt = _pyplot()
    fig, axis = plt.subplots(figsize=(max(4.0, 1.6 * len(runs) + 2), 4))
    per_run = [rates(run.rows, "strict") for run in runs]
    _bars(axis, [run.label for run in runs], {s: [r[s] for r in per_run] for s in STAGES})
    axis.set_title("Performance on the Planetarium test set")
    axis.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_domains(runs: list[GradedRun], path: Path) -> None:
    """Figure 4 style: one panel per domain; per model, strict stages and relaxed correctness."""
    plt = _pyplot()
    domains = sorted({row["domain"] for run in runs for row in run.rows})
    fig, axes = plt.subplots(1, len(domains), figsize=(4.5 * len(domains), 4), squeeze=False)
    for axis, domain in zip(axes[0], domains):
        subsets = [[row for row in run.rows if row["domain"] == domain] for run in runs]
        strict = [rates(rows, "strict") for rows in subsets]
        series = {stage: [r[stage] for r in strict] for stage in STAGES}
        series["correct (relaxed typing)"] = [rates(rows, "relaxed")["correct"] for rows in subsets]
        _bars(axis, [run.label for run in runs], series)
        axis.set_title(domain)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), bbox_to_anchor=(0.5, -0.08))
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def _pyplot() -> Any:
    """Matplotlib on the Agg backend (no display needed), imported only when plotting."""
    from ..errors import require

    matplotlib = require("matplotlib", "report")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_report(run_dirs: list[str | Path], out_dir: str | Path) -> Path:
    """Write ``report.md``, ``overall.png`` and ``domains.png`` to ``out_dir``; return the .md."""
    runs = [load_run(run_dir) for run_dir in run_dirs]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plot_overall(runs, out / "overall.png")
    plot_domains(runs, out / "domains.png")
    text = markdown_report(runs) + "\n![overall](overall.png)\n\n![by domain](domains.png)\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    return out / "report.md"
