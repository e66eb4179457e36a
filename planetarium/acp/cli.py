"""``planetarium acp``: score responses, render gold answers, report."""

from __future__ import annotations

import json
import sys

import click

from ..cliutil import SECONDS
from ..errors import PlanetariumError
from ..jsonl import JsonLineError, decode, numbered_lines


def _fail(err: Exception) -> None:
    click.echo(f"error: {err}", err=True)
    sys.exit(1)


def _budget_options(command):
    """The per-question search budget and the process count, shared by the grading commands."""
    for option in reversed([
        click.option("--max-states", type=click.IntRange(1), default=200_000, show_default=True,
                     help="Exact-search budget per question; beyond it a question is "
                          "'undecided'."),
        click.option("--seconds", type=SECONDS, default=5.0, show_default=True,
                     help="Wall-clock search budget per question; beyond it 'undecided'."),
        click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
                     help="Processes working in parallel."),
    ]):
        command = option(command)
    return command


@click.group("acp")
def acp_group() -> None:
    """ACPBench / ACPBench Hard: grade answers exactly on Planetarium's STRIPS core."""


@acp_group.command("score")
@click.argument("data", type=click.Path(exists=True))
@click.option("--responses", "responses_path", required=True, type=click.Path(exists=True),
              help='JSONL: {"id", "response"[, "task", "kind"]} per line.')
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@click.option("--semantics", type=click.Choice(["paper", "published"]), default="paper",
              show_default=True, help="Paper definitions, or the published evaluator's lookups.")
@_budget_options
def score_command(data: str, responses_path: str, out_path: str, semantics: str,
                  max_states: int, seconds: float, workers: int) -> None:
    """Grade RESPONSES against the questions in DATA (a file or a folder of them)."""
    from .data import load_items
    from .model import Budget
    from .report import format_table, summarize
    from .score import grade_all, match_responses, read_responses

    try:
        items = load_items(data)
        responses = match_responses(items, read_responses(responses_path), responses_path)
        rows = []
        with open(out_path, "w", encoding="utf-8") as out:
            for row in grade_all(items, responses, semantics, Budget(max_states, seconds),
                                 workers):
                out.write(json.dumps(row) + "\n")
                rows.append(row)
    except (PlanetariumError, OSError) as err:
        _fail(err)
    click.echo(format_table(summarize(rows)))
    slowest = max(rows, key=lambda r: r["seconds"], default=None)
    if slowest:
        click.echo(f"slowest: {slowest['kind']}/{slowest['task']} {slowest['id']} "
                   f"{slowest['seconds']:.2f}s")


@acp_group.command("gold")
@click.argument("data", type=click.Path(exists=True))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
def gold_command(data: str, out_path: str) -> None:
    """Write the stored gold answers of DATA as responses, in the prompts' answer format."""
    from .choice import render_choice_gold
    from .data import load_items
    from .gold import render_gold

    written = 0
    try:
        items = load_items(data)
        with open(out_path, "w", encoding="utf-8") as out:
            for item in items:
                try:
                    text = render_gold(item) if item.kind == "gen" else render_choice_gold(item)
                except (PlanetariumError, ValueError) as err:  # one question, not the whole run
                    click.echo(f"skipped {item.kind}/{item.task} {item.id}: {err}", err=True)
                    continue
                out.write(json.dumps({"id": item.id, "task": item.task, "kind": item.kind,
                                      "response": text}) + "\n")
                written += 1
    except (PlanetariumError, OSError) as err:
        _fail(err)
    click.echo(f"wrote {written} of {len(items)} gold answers to {out_path}")


@acp_group.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def report_command(results: tuple[str, ...], as_json: bool) -> None:
    """Mean score and standard error per task over one or more RESULTS files."""
    from .report import format_table, summarize

    rows = []
    for path in results:
        with open(path, "rb") as handle:
            for number, line in _lines_or_fail(handle, path):
                try:
                    row = decode(line)
                except JsonLineError as err:
                    _fail(f"{path}: line {number}: not valid JSON: {err}")
                if not isinstance(row, dict) or "task" not in row or "score" not in row:
                    _fail(f"{path}: line {number}: expected a result row with 'task' and 'score'")
                rows.append(row)
    summary = summarize(rows)
    click.echo(json.dumps(summary, indent=2) if as_json else format_table(summary))


def _lines_or_fail(handle, path: str):
    """The numbered lines of a results file; an endless line (``/dev/zero``) is one error."""
    try:
        yield from numbered_lines(handle, path)
    except JsonLineError as err:
        _fail(str(err))


@acp_group.command("check-labels")
@click.argument("data", type=click.Path(exists=True))
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="JSON report: the reader's checks per domain, the table, one row per question.")
@_budget_options
def check_labels_command(data: str, out_path: str | None, max_states: int, seconds: float,
                         workers: int) -> None:
    """Check every yes/no and multiple-choice label in DATA under our STRIPS semantics.

    DATA must hold the generative records of the same domains: their PDDL teaches (and checks)
    how each domain's English is read.  Prints the reader's checks per domain, one line per
    task, and every label found false or ambiguous.
    """
    import time

    from .data import load_items
    from .labelreport import check_labels, domain_report, format_table, reader_lines, summarize
    from .model import Budget

    start = time.perf_counter()
    try:
        known, rows = check_labels(load_items(data), Budget(max_states, seconds), workers)
    except (PlanetariumError, OSError) as err:
        _fail(err)
    for line in reader_lines(known):
        click.echo(line)
    by_task = summarize(rows, ("kind", "task"))
    click.echo(format_table(by_task, ("kind", "task")))
    for row in rows:
        if row["status"] in ("false", "ambiguous"):
            click.echo(f"{row['status'].upper()}: {row['kind']}/{row['task']} {row['domain']} "
                       f"{row['id']} (label {row['label']}): {row['reason']}")
    slowest = max(rows, key=lambda r: r["seconds"], default=None)
    click.echo(f"{len(rows)} questions in {time.perf_counter() - start:.1f}s"
               + (f"; slowest {slowest['kind']}/{slowest['task']} {slowest['id']} "
                  f"{slowest['seconds']:.2f}s" if slowest else ""))
    if out_path:
        report = {"domains": domain_report(known), "by_task": by_task,
                  "by_task_and_domain": summarize(rows), "questions": rows}
        try:
            with open(out_path, "w", encoding="utf-8") as out:
                json.dump(report, out, indent=1)
        except OSError as err:
            _fail(err)
