"""``eval report``: tables, comparisons and the paper's figures over graded runs.

The report is written for a reader who did not run the experiments: it says which run is which
(:mod:`.identity`), refuses to put rates over different items side by side, gives every rate
with its n and 95% interval, compares runs item by item with a p-value (:mod:`.tables`), draws
the paper's Figures 3-4 and the stage funnel (:mod:`.figures`), and says in words why a run
scored nothing.  Every table is also written as CSV and JSON under ``tables/``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..benchmarks import get_benchmark
from ..benchmarks.planetarium import ANCHORED, MODES
from ..errors import require
from .benchmark_tables import benchmark_tables
from .breakdown import n_undecided, rate
from .categories import FIGURE as CATEGORY_FIGURE
from .categories import category_tables, plot_categories
from .config import upgrade_record
from .figures import FIGURES
from .grade import RESULTS, VERDICTS
from .identity import ReportError, RunIdentity, assign_labels, check_comparable
from .options import TINY_PREFIX
from .runner import COMPLETIONS, ITEMS
from .store import RunDirError, read_json, read_jsonl
from .tables import (
    BREAKDOWNS,
    ReportRun,
    Table,
    modes_table,
    paired_table,
    rate_table,
    runs_table,
)

TABLES_DIR = "tables"
#: A Planetarium report's figures: the paper's and the error categories' (name -> plot).
PAPER_FIGURES = {**FIGURES, CATEGORY_FIGURE: plot_categories}
HOW_TO_READ = (
    "Each rate is the share of graded items that passed the stage and every stage before it "
    "(parseable → solvable → correct), shown as `rate [95% Wilson interval] (passed/n)`; an "
    "undecided verdict (time limit, unsupported feature) counts as not passed and is counted in "
    "*undecided*. Paired comparisons use only the items both runs answered; the exact McNemar "
    "test looks at the items where exactly one of the two passed, and *p (Holm)* adjusts for the "
    "number of pairs compared at the same stage."
)

HOW_TO_READ_ANY = (
    "Each rate is the share of graded items that passed the metric and every one before it, "
    "shown as `rate [95% Wilson interval] (passed/n)`; *undecided* counts items whose grading "
    "status is not `decided` (time limit, unreadable question, grader error): they count as not "
    "passed and are listed by status."
)


@dataclass(frozen=True)
class RunRecord:
    """Everything a graded run directory holds that the report reads."""

    identity: RunIdentity
    rows: list[dict[str, Any]]
    completions: dict[str, dict[str, Any]]
    n_missing: int
    max_new_tokens: int | None


def load_run(run_dir: str | Path) -> RunRecord:
    """Join a graded run's items with their verdicts; an ungraded run is an error, not zeros."""
    run_dir = Path(run_dir)
    if not (run_dir / RESULTS).is_file():
        raise RunDirError(f"{run_dir}: not graded yet; run 'planetarium eval grade {run_dir}'")
    results = upgrade_record(read_json(run_dir / RESULTS, ("config",)))
    items = {str(row["id"]): row for row in read_jsonl(run_dir / ITEMS, ("id",))}
    verdicts = read_jsonl(run_dir / VERDICTS, ("id",))
    if any(str(v["id"]) not in items for v in verdicts):
        raise RunDirError(f"{run_dir}: damaged: {VERDICTS} grades items that {ITEMS} lacks")
    rows = [{**items[str(v["id"])], **v} for v in verdicts]
    completions: dict[str, dict[str, Any]] = {}
    for record in read_jsonl(run_dir / COMPLETIONS, ("id",)):
        completions.setdefault(record["id"], record)  # the grader keeps the first answer too
    return RunRecord(
        identity=RunIdentity.from_results(run_dir, results),
        rows=rows,
        completions=completions,
        n_missing=results.get("n_missing", 0),
        max_new_tokens=results["config"]["model"].get("max_new_tokens"),
    )


def side_by_side(records: Sequence[RunRecord]) -> list[int]:
    """Indices in report order: runs of one base model together, zero-shot before fine-tuned,
    otherwise in the order given."""
    first = {}
    for index, record in enumerate(records):
        first.setdefault(record.identity.model, index)
    return sorted(
        range(len(records)),
        key=lambda i: (first[records[i].identity.model], records[i].identity.adapter is not None, i),
    )


def why_nothing_correct(record: RunRecord, label: str) -> str | None:
    """A plain explanation when a run with graded items has no correct answer (strict typing):
    where the answers stopped in the stage chain, how they ended, and what the grader said."""
    rows = record.rows
    if not rows or rate(rows, "strict", "correct").k:
        return None
    parseable = rate(rows, "strict", "parseable").k
    solvable = rate(rows, "strict", "solvable").k
    parts = [
        f"**{label}: no item is correct.** Of {len(rows)} graded answers, "
        f"{len(rows) - parseable} do not parse, {parseable - solvable} parse but are not "
        f"solvable and {solvable} are solvable but not equivalent to the ground truth "
        f"({n_undecided(rows, 'strict')} undecided)."
    ]
    answers = [record.completions[row["id"]] for row in rows if row["id"] in record.completions]
    refused = [a for a in answers if a.get("error")]
    if refused:
        parts.append(f"{len(refused)} requests were refused by the server, e.g. "
                     f"\"{_clip(refused[0]['error'])}\".")
    cut = sum(a.get("finish_reason") == "length" for a in answers)
    if cut:
        answer_chars = statistics.median(len(a.get("output") or "") for a in answers)
        truth_chars = statistics.median(len(row["problem_pddl"]) for row in rows)
        parts.append(
            f"{cut} of {len(answers)} answers stopped at the max_new_tokens limit "
            f"({record.max_new_tokens} tokens): the median answer has {answer_chars:.0f} "
            f"characters, the median ground-truth problem {truth_chars:.0f}."
        )
    reasons = Counter(row["strict"].get("reason") or "no reason given" for row in rows)
    said = "; ".join(f"\"{_clip(reason)}\" ({count}×)" for reason, count in reasons.most_common(2))
    parts.append(f"The grader's most common reasons: {said}.")
    if record.identity.model.startswith(TINY_PREFIX):
        tuned = " with an adapter from a few CPU training steps" if record.identity.adapter else ""
        parts.append(
            f"Model `{record.identity.model}` is the random-weight test model built locally "
            f"(planetarium.llm.tiny){tuned}: its answers are noise by design, so 0% is the "
            "expected result. It shows that run → grade → report works, not how good a model is."
        )
    return " ".join(parts)


def _clip(text: str, limit: int = 90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Report:
    """The report's content: runs, warnings, explanatory notes and tables, ready to write."""

    runs: list[ReportRun]
    warnings: list[str]
    notes: list[str]
    tables: list[Table]
    benchmark: str = "planetarium"
    figures: tuple[str, ...] = tuple(PAPER_FIGURES)

    def markdown(self, *, summary: bool = False) -> str:
        """The whole report, or (``summary``) runs, notes, overall rates and comparisons."""
        parts = ["# Planetarium evaluation report" + (
            "" if self.benchmark == "planetarium" else f": {self.benchmark}")]
        parts += [f"> **Warning:** {w}".replace("\n", "\n> ") for w in self.warnings]
        parts.append(HOW_TO_READ if self.benchmark == "planetarium" else HOW_TO_READ_ANY)
        parts += self.notes
        for table in self.tables:
            if summary and not table.name.startswith(("runs", "overall", "paired")):
                continue
            parts += [f"## {table.title}", table.markdown()]
        if not summary:
            if self.figures:
                parts.append("## Figures")
                parts += [f"![{name[:-4]}]({name})" for name in self.figures]
            parts.append(f"Every table is also in `{TABLES_DIR}/` as CSV and JSON.")
        return "\n\n".join(parts) + "\n"


def build_report(
    run_dirs: Sequence[str | Path], labels: Sequence[str] = (), *, allow_mixed: bool = False
) -> Report:
    """Load, label, check and tabulate the runs (nothing is written)."""
    resolved = [Path(d).resolve() for d in run_dirs]
    repeated = sorted({str(d) for d in resolved if resolved.count(d) > 1})
    if repeated:
        raise ReportError(f"the same run was given more than once: {', '.join(repeated)}")
    records = [load_run(run_dir) for run_dir in run_dirs]
    identities = [record.identity for record in records]
    given = assign_labels(identities, labels)
    warnings = check_comparable(identities, given, allow_mixed=allow_mixed)
    order = side_by_side(records)
    runs = [ReportRun(given[i], identities[i], records[i].rows) for i in order]
    notes = [
        f"**{given[i]}** is incomplete: {records[i].n_missing} selected items have no answer "
        "yet; its rates are over the answered items only."
        for i in order if records[i].n_missing
    ]
    tables = [runs_table(runs, [records[i].n_missing for i in order])]
    benchmark = identities[0].benchmark
    if benchmark != "planetarium":
        tables += benchmark_tables(get_benchmark(benchmark), runs)
        return Report(runs, warnings, notes, tables, benchmark, figures=())
    notes = [note for i in order if (note := why_nothing_correct(records[i], given[i]))] + notes
    return Report(runs, warnings, notes, tables + _paper_tables(runs))


def _paper_tables(runs: Sequence[ReportRun]) -> list[Table]:
    """Planetarium's tables: each grading mode, paired comparisons, the paper's breakdowns."""
    tables = []
    # anchored verdicts exist for runs graded since name-anchored grading was added
    modes = [*MODES, *([ANCHORED] if all(ANCHORED in row for run in runs for row in run.rows)
                       else [])]
    tables.append(modes_table(runs, modes))
    for mode in modes:
        tables.append(rate_table(runs, mode, ()))
        comparisons = paired_table(runs, mode)
        if comparisons is not None:
            tables.append(comparisons)
    tables += [rate_table(runs, mode, axes) for mode in MODES for axes in BREAKDOWNS[1:]]
    tables += category_tables(runs)
    return tables


def write_report(
    run_dirs: Sequence[str | Path],
    out_dir: str | Path,
    labels: Sequence[str] = (),
    *,
    allow_mixed: bool = False,
) -> Report:
    """Write ``report.md``, the figures and ``tables/*.csv|json`` to ``out_dir``."""
    require("matplotlib", "report")  # missing: refused before any file is written
    report = build_report(run_dirs, labels, allow_mixed=allow_mixed)
    out = Path(out_dir)
    (out / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    for name in report.figures:
        PAPER_FIGURES[name](report.runs, out / name)
    for table in report.tables:
        (out / TABLES_DIR / f"{table.name}.csv").write_text(table.csv(), encoding="utf-8")
        (out / TABLES_DIR / f"{table.name}.json").write_text(table.json(), encoding="utf-8")
    (out / "report.md").write_text(report.markdown(), encoding="utf-8")
    return report

