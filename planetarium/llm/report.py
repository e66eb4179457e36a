"""``eval report``: tables, comparisons and figures over graded runs, asked of their benchmark.

The report is written for a reader who did not run the experiments: it says which run is which
(:mod:`.identity`), refuses to put rates over different items side by side, and says in words
why a run scored nothing.  What it tabulates and draws is the benchmark's to say
(:class:`~planetarium.benchmarks.Benchmark`'s presentation hooks): by default every rate along
the benchmark's metric chain with its n and 95% interval, overall and per breakdown, with paired
comparisons (:mod:`planetarium.presentation.tables`); Planetarium adds its grading modes, the
paper's breakdowns and figures and the error categories.  Every table is also written as CSV
and JSON under ``tables/``.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..benchmarks import Benchmark, get_benchmark
from ..errors import require
from ..presentation.plots import Figure
from ..presentation.tables import ReportRun, Table, clip
from .config import upgrade_record
from .grade import RESULTS, VERDICTS
from .identity import ReportError, RunIdentity, assign_labels, check_comparable
from .options import TINY_PREFIX
from .runner import COMPLETIONS, ITEMS, MANIFEST
from .store import RunDirError, read_json, read_jsonl

TABLES_DIR = "tables"


@dataclass(frozen=True)
class RunRecord:
    """Everything a graded run directory holds that the report reads: ``rows`` join each graded
    item with its verdict; ``items`` are the items alone (by id); ``config`` the run's config
    (both sections)."""

    identity: RunIdentity
    rows: list[dict[str, Any]]
    completions: dict[str, dict[str, Any]]
    n_missing: int
    max_new_tokens: int | None
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)

    def report_run(self, label: str) -> ReportRun:
        """The run as a benchmark's tables and figures see it."""
        return ReportRun(label, self.rows, self.identity.setting, self.completions, self.items)


def ungraded(run_dir: Path) -> str:
    """Why ``run_dir`` has no results: it is no folder, no run folder (what it holds instead,
    when that is recognisable), or a run not graded yet."""
    if not run_dir.is_dir():
        return f"{run_dir}: no such folder"
    if (run_dir / MANIFEST).is_file():
        return f"{run_dir}: not graded yet; run 'planetarium eval grade {run_dir}'"
    held = sorted(path.name for path in run_dir.iterdir())[:3]
    what = (f"it holds {', '.join(held)}{', ...' if len(held) == 3 else ''}" if held
            else "it is empty")
    return (f"{run_dir}: not a run folder (no {MANIFEST}; {what}): give a folder "
            "'planetarium eval run --out' wrote")


def load_run(run_dir: str | Path) -> RunRecord:
    """Join a graded run's items with their verdicts; an ungraded run is an error, not zeros."""
    run_dir = Path(run_dir)
    if not (run_dir / RESULTS).is_file():
        raise RunDirError(ungraded(run_dir))
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
        items=items,
        config=results["config"],
    )


def side_by_side(records: Sequence[RunRecord]) -> list[int]:
    """Indices in report order: runs of one base model together, zero-shot before fine-tuned,
    otherwise in the order given."""
    first: dict[str, int] = {}
    for index, record in enumerate(records):
        first.setdefault(record.identity.model, index)
    return sorted(
        range(len(records)),
        key=lambda i: (first[records[i].identity.model], records[i].identity.adapter is not None, i),
    )


def why_nothing_correct(benchmark: Benchmark, record: RunRecord, run: ReportRun) -> str | None:
    """A plain explanation when a run with graded items has no correct answer: the benchmark's
    account of where the answers stopped, then what the run's answers say of the model
    (refused by the server, cut at the token limit, the random-weight test model)."""
    rows = run.rows
    if not rows or any(row.get("correct") is True for row in rows):
        return None
    parts = [f"**{run.label}: no item is correct.** {benchmark.nothing_correct(run)}"]
    answers = [record.completions[row["id"]] for row in rows if row["id"] in record.completions]
    refused = [a for a in answers if a.get("error")]
    if refused:
        parts.append(f"{len(refused)} requests were refused by the server, e.g. "
                     f"\"{clip(refused[0]['error'])}\".")
    cut = sum(a.get("finish_reason") == "length" for a in answers)
    if cut:
        answer_chars = statistics.median(len(a.get("output") or "") for a in answers)
        references = [len(ref) for row in rows if (ref := benchmark.reference_answer(run.item(row)))]
        reference = (f", the median reference answer {statistics.median(references):.0f}"
                     if references else "")
        parts.append(
            f"{cut} of {len(answers)} answers stopped at the max_new_tokens limit "
            f"({record.max_new_tokens} tokens): the median answer has {answer_chars:.0f} "
            f"characters{reference}."
        )
    if record.identity.model.startswith(TINY_PREFIX):
        tuned = " with an adapter from a few CPU training steps" if record.identity.adapter else ""
        parts.append(
            f"Model `{record.identity.model}` is the random-weight test model built locally "
            f"(planetarium.llm.tiny){tuned}: its answers are noise by design, so 0% is the "
            "expected result. It shows that run → grade → report works, not how good a model is."
        )
    return " ".join(parts)


def runs_table(records: Sequence[RunRecord], labels: Sequence[str]) -> Table:
    """Who is who: every identity field behind each label."""
    rows = [
        (label, i.benchmark, i.setting, i.model, i.adapter, i.backend, i.config_name, i.dataset,
         i.split, i.dataset_hash, len(record.rows), record.n_missing, i.graded_by, str(i.run_dir))
        for label, record in zip(labels, records, strict=True) for i in [record.identity]
    ]
    columns = ("run", "benchmark", "setting", "model", "adapter", "backend", "config", "dataset",
               "split", "dataset hash", "graded", "unanswered", "graded by", "run directory")
    return Table("runs", "Runs", columns, rows)


@dataclass(frozen=True)
class Report:
    """The report's content: runs, warnings, explanatory notes, tables and figures, ready to
    write."""

    runs: list[ReportRun]
    warnings: list[str]
    notes: list[str]
    tables: list[Table]
    benchmark: str
    how_to_read: str = ""
    figures: Mapping[str, Figure] = field(default_factory=dict)

    def markdown(self, *, summary: bool = False) -> str:
        """The whole report, or (``summary``) runs, notes, overall rates and comparisons."""
        parts = [f"# Planetarium evaluation report: {self.benchmark}"]
        parts += [f"> **Warning:** {w}".replace("\n", "\n> ") for w in self.warnings]
        parts.append(self.how_to_read)
        parts += self.notes
        for table in self.tables:
            if summary and not table.name.startswith(("runs", "overall", "paired")):
                continue
            parts += [f"## {table.title}", table.markdown()]
        if not summary:
            if self.figures:
                parts.append("## Figures")
                parts += [f"![{name.removesuffix('.png')}]({name})" for name in self.figures]
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
    benchmark = get_benchmark(identities[0].benchmark)
    runs = [records[i].report_run(given[i]) for i in order]
    notes = [note for i, run in zip(order, runs, strict=True)
             if (note := why_nothing_correct(benchmark, records[i], run))]
    notes += [
        f"**{given[i]}** is incomplete: {records[i].n_missing} selected items have no answer "
        "yet; its rates are over the answered items only."
        for i in order if records[i].n_missing
    ]
    tables = [runs_table([records[i] for i in order], [given[i] for i in order])]
    return Report(runs, warnings, notes, tables + benchmark.report_tables(runs), benchmark.name,
                  benchmark.how_to_read(), benchmark.report_figures())


def write_report(
    run_dirs: Sequence[str | Path],
    out_dir: str | Path,
    labels: Sequence[str] = (),
    *,
    allow_mixed: bool = False,
) -> Report:
    """Write ``report.md``, the figures and ``tables/*.csv|json`` to ``out_dir``."""
    report = build_report(run_dirs, labels, allow_mixed=allow_mixed)
    if report.figures:
        require("matplotlib", "report")  # missing: refused before any file is written
    out = Path(out_dir)
    (out / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    for name, draw in report.figures.items():
        draw(report.runs, out / name)
    for table in report.tables:
        (out / TABLES_DIR / f"{table.name}.csv").write_text(table.csv(), encoding="utf-8")
        (out / TABLES_DIR / f"{table.name}.json").write_text(table.json(), encoding="utf-8")
    (out / "report.md").write_text(report.markdown(), encoding="utf-8")
    return report
