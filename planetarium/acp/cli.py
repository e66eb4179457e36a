"""``planetarium acp``: render gold answers, report, check labels (``acp score`` joins the
group from :mod:`planetarium.scoring.acp`, above the benchmarks it grades through)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from ..cliutil import SECONDS, refuse_overwriting_inputs
from ..errors import PlanetariumError

#: A click command function, before and after an option decorator.
Command = TypeVar("Command", bound=Callable[..., Any])


def fail(err: Exception | str) -> NoReturn:
    """End the command with one line, ``Error: ...`` like every command's (click's form)."""
    raise click.ClickException(str(err))


def need_lark() -> None:
    """Answers and quoted plans are read with lark: say so in one line before any work."""
    from ..errors import require

    try:
        require("lark", "acp")
    except PlanetariumError as err:
        fail(err)


TASKS = ("app", "prog", "reach", "areach", "val", "just", "land", "nexta")


def budget_options(command: Command) -> Command:
    """The per-question search budget and the process count, shared by the grading commands."""
    for option in reversed([
        click.option("--max-states", type=click.IntRange(1), default=200_000, show_default=True,
                     help="States one search of a question may generate; beyond it the "
                          "question is a 'timeout'."),
        click.option("--seconds", type=SECONDS, default=20.0, show_default=True,
                     help="Time limit per question in CPU seconds (not wall-clock: a busy "
                          "machine grades slower, with the same verdicts; three times as many "
                          "wall seconds at most); beyond it a 'timeout'."),
        click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
                     help="Processes working in parallel."),
    ]):
        command = option(command)
    return command


@click.group("acp")
def acp_group() -> None:
    """ACPBench / ACPBench Hard: grade answers exactly on Planetarium's STRIPS core."""


@acp_group.command("gold")
@click.argument("data", type=click.Path(exists=True))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
def gold_command(data: str, out_path: str) -> None:
    """Write the stored gold answers of DATA as responses, in the prompts' answer format."""
    from .choice import render_choice_gold
    from .data import load_items
    from .gold import render_gold

    written = 0
    need_lark()
    refuse_overwriting_inputs(out_path, [data])
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
        fail(err)
    click.echo(f"wrote {written} of {len(items)} gold answers to {out_path}")


@acp_group.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary as JSON (several files: an object keyed by file).")
def report_command(results: tuple[str, ...], as_json: bool) -> None:
    """Mean score and standard error per task for each RESULTS file (one column per file;
    runs are never pooled)."""
    from .report import format_columns, format_table, summarize

    summaries = {}
    for path in results:
        if path in summaries:
            fail(f"{path} is named twice")
        try:
            summaries[path] = summarize(_result_rows(path))
        except (PlanetariumError, OSError) as err:
            fail(err)
    if as_json:
        single = len(summaries) == 1
        click.echo(json.dumps(next(iter(summaries.values())) if single else summaries, indent=2))
    elif len(summaries) == 1:
        click.echo(format_table(next(iter(summaries.values()))))
    else:
        click.echo(format_columns(summaries))


def _result_rows(path: str) -> list[dict]:
    from .score import read_rows

    return read_rows(path, ("task", "score"), "a result row")


@acp_group.command("check-labels")
@click.argument("data", type=click.Path(exists=True))
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="JSON report: the reader's checks per domain, the table, one row per question.")
@click.option("--progress/--no-progress", default=True, show_default=True)
@budget_options
def check_labels_command(data: str, out_path: str | None, progress: bool, max_states: int,
                         seconds: float, workers: int) -> None:
    """Check every yes/no and multiple-choice label in DATA under our STRIPS semantics.

    DATA must hold the generative records of the same domains: their PDDL teaches (and checks)
    how each domain's English is read.  Prints the reader's checks per domain, one line per
    task, and every label found false or ambiguous.
    """

    from ..limits import Stopwatch
    from .data import load_items
    from .labelreport import check_labels, domain_report, format_table, reader_lines, summarize

    need_lark()
    if out_path:
        refuse_overwriting_inputs(out_path, [data])
    watch = Stopwatch()
    try:
        known, rows = check_labels(load_items(data), seconds, max_states, workers, progress)
    except (PlanetariumError, OSError) as err:
        fail(err)
    for line in reader_lines(known):
        click.echo(line)
    by_task = summarize(rows, ("kind", "task"))
    click.echo(format_table(by_task, ("kind", "task")))
    for row in rows:
        if row["verdict"] in ("false", "ambiguous") or row["bad_question"]:
            what = "BAD QUESTION" if row["bad_question"] else row["verdict"].upper()
            click.echo(f"{what}: {row['kind']}/{row['task']} {row['domain']} "
                       f"{row['id']} (label {row['label']}): {row['reason']}")
    slowest = max(rows, key=lambda r: r["seconds"], default=None)
    click.echo(f"{len(rows)} questions in {watch.seconds:.1f}s"
               + (f"; slowest {slowest['kind']}/{slowest['task']} {slowest['id']} "
                  f"{slowest['seconds']:.2f}s" if slowest else ""))
    if out_path:
        report = {"domains": domain_report(known), "by_task": by_task,
                  "by_task_and_domain": summarize(rows), "questions": rows}
        try:
            with open(out_path, "w", encoding="utf-8") as out:
                json.dump(report, out, indent=1)
        except OSError as err:
            fail(err)
