"""``planetarium acp``: score responses, render gold answers, report."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from ..cliutil import RESUME, SECONDS, refuse_overwriting_inputs
from ..errors import PlanetariumError

#: A command (a function or a click command) an option decorator returns as it was given.
F = TypeVar("F", bound=Callable[..., Any])


def _fail(err: Exception | str) -> NoReturn:
    click.echo(f"error: {err}", err=True)
    sys.exit(1)


def _need_lark() -> None:
    """Answers and quoted plans are read with lark: say so in one line before any work."""
    from ..errors import require

    try:
        require("lark", "acp")
    except PlanetariumError as err:
        _fail(err)


_TASKS = ("app", "prog", "reach", "areach", "val", "just", "land", "nexta")


def _budget_options(command: F) -> F:
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


@acp_group.command("score")
@click.argument("data", type=click.Path(exists=True))
@click.option("--responses", "responses_path", required=True, type=click.Path(exists=True),
              help='JSONL: {"id", "response"[, "task", "kind"]} per line.')
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@click.option("--semantics", type=click.Choice(["paper", "published"]), default="paper",
              show_default=True,
              help="paper: the ACPBench Hard paper's definitions; published: the published "
                   "evaluator's lookups in the stored examples for reach, areach and land.")
@click.option("--just-rule", type=click.Choice(["subsequence", "one-or-two-consecutive"]),
              default="subsequence", show_default=True,
              help="just: any proper in-order subsequence of the plan that is still a plan (the "
                   "paper's evaluation), or only one action / two consecutive ones removed.")
@click.option("--task", "tasks", multiple=True, type=click.Choice(_TASKS),
              help="Only these tasks (repeatable): the benchmark.tasks of an acpbench eval run.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(["gen", "bool", "mcq"]),
              help="Only these question kinds (repeatable), as benchmark.kinds.")
@click.option("--limit", type=click.IntRange(0), help="Only the first N selected questions, "
              "as benchmark.limit.")
@click.option("--progress/--no-progress", default=True, show_default=True)
@RESUME
@_budget_options
def score_command(data: str, responses_path: str, out_path: str, semantics: str,
                  just_rule: str, tasks: tuple[str, ...], kinds: tuple[str, ...],
                  limit: int | None, progress: bool, resume: bool, max_states: int,
                  seconds: float, workers: int) -> None:
    """Grade RESPONSES against the questions in DATA (a file or a folder of them).

    Only the questions selected by --task/--kind/--limit are graded (all by default); a
    selected question without a response scores 0 as 'missing'.  A responses file that answers
    one question twice is refused.  --resume goes on after the rows a killed run wrote.
    """
    from ..batch import resumed_rows
    from .data import load_items, select_items
    from .gen import Rules
    from .report import format_table, summarize
    from .score import ROW_KEYS, grade_all, match_responses, read_responses

    _need_lark()
    refuse_overwriting_inputs(out_path, [data, responses_path])
    try:
        items = select_items(load_items(data), tasks, kinds, limit)
        responses = match_responses(items, read_responses(responses_path), responses_path)
        rows = resumed_rows(out_path, [(i.kind, i.task, str(i.id)) for i in items], lambda r: (
            r.get("kind"), r.get("task"), str(r.get("id"))), ROW_KEYS) if resume else []
        with open(out_path, "a" if resume else "w", encoding="utf-8") as out:
            for row in grade_all(items, responses, Rules(semantics, just_rule), seconds,
                                 max_states, workers, progress, skip=len(rows)):
                out.write(json.dumps(row) + "\n")
                out.flush()  # whole rows as they come: what --resume keeps after a kill
                rows.append(row)
    except (PlanetariumError, OSError, ValueError) as err:
        _fail(err)
    click.echo(format_table(summarize(rows)))
    missing = sum(r["answered"] is False for r in rows)
    if missing:
        click.echo(f"{missing} of {len(rows)} questions have no response and score 0 "
                   "('missing'); if the responses answered a selection (--task/--kind/--limit), "
                   "give 'acp score' the same options")
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
    _need_lark()
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
        _fail(err)
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
            _fail(f"{path} is named twice")
        try:
            summaries[path] = summarize(_result_rows(path))
        except (PlanetariumError, OSError) as err:
            _fail(err)
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
@_budget_options
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

    _need_lark()
    if out_path:
        refuse_overwriting_inputs(out_path, [data])
    watch = Stopwatch()
    try:
        known, rows = check_labels(load_items(data), seconds, max_states, workers, progress)
    except (PlanetariumError, OSError) as err:
        _fail(err)
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
            _fail(err)
