"""``planetarium arb``: check ActionReasoningBench's labels, write its stored answers (``arb
score`` joins the group from :mod:`planetarium.scoring.arb`, above the benchmark it grades
through)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from ..cliutil import SECONDS, refuse_overwriting_inputs
from ..errors import PlanetariumError

#: A click command function, before and after an option decorator.
Command = TypeVar("Command", bound=Callable[..., Any])


def fail(err: object) -> NoReturn:
    """End the command with one line, ``Error: ...`` like every command's (click's form)."""
    raise click.ClickException(str(err))


def domains_option(command: Command) -> Command:
    command = click.option("--instances", "instances_dir", type=click.Path(file_okay=False),
                           help="Folder of instances for records without their objects (the "
                                "final release): <domain>/<instance_id>/instance.pddl, or ARB's "
                                "<domain>/instances/<instance_id>/instance.pddl.")(command)
    return click.option("--domains", "domains_dir", type=click.Path(file_okay=False),
                        help="Folder of domains (<name>/domain.pddl or ARB's <name>/domain.lp, "
                             "with phrases.json for English not built in).")(command)


def check_folders(domains_dir: str | None, instances_dir: str | None) -> None:
    """Make the folders' catalog here, so a bad folder is one error before any worker starts
    (forked workers inherit the catalog made)."""
    from .runner import catalog_for

    catalog_for(domains_dir, instances_dir)


def loop_options(command: Command) -> Command:
    """The per-question limit, the process count and the bar, shared by the two commands."""
    for option in reversed([
        click.option("--timeout", "timeout_s", type=SECONDS, default=10.0, show_default=True,
                     help="CPU seconds per question; past it (or its wall-time limit, when "
                          "the question's worker is killed) the row is a 'timeout'."),
        click.option("--workers", type=click.IntRange(1), default=None,
                     help="Processes working in parallel  [default: usable CPUs]"),
        click.option("--progress/--no-progress", default=False, show_default=True),
    ]):
        command = option(command)
    return command


@click.group("arb")
def arb_group() -> None:
    """ActionReasoningBench: answers graded exactly by simulation, stored labels checked."""


@arb_group.command("gold")
@click.argument("questions", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
def gold_command(questions: tuple[str, ...], out_path: str) -> None:
    """Write the QUESTIONS' stored answers as responses in ARB's answer format."""
    from .records import load_records

    refuse_overwriting_inputs(out_path, questions)
    try:
        records = load_records(questions)
        with open(out_path, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps({"id": record.id,
                                      "response": f"[ANSWER]\n{record.answer}"}) + "\n")
    except (PlanetariumError, OSError) as err:
        fail(err)
    click.echo(f"wrote {len(records)} stored answers to {out_path}")


@arb_group.command("check-labels")
@click.argument("questions", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="JSON report: the table and one row per question (with certificates).")
@click.option("--all", "show_all", is_flag=True, help="Print every disagreement (default: up to "
              "5 per category and domain).")
@loop_options
@domains_option
def check_labels_command(questions: tuple[str, ...], out_path: str | None, show_all: bool,
                         timeout_s: float, workers: int | None, progress: bool,
                         domains_dir: str | None, instances_dir: str | None) -> None:
    """Recompute every stored label of the QUESTIONS by simulation.

    Prints a table per category and domain (labels that agree, disagree, or could not be
    checked) and each disagreement with its certificate: the step and action, the fact.
    """
    from collections import Counter

    from .records import load_records
    from .report import disagreement_line, format_labels, ill_posed_lines, label_summary
    from .runner import check_all

    if out_path:
        refuse_overwriting_inputs(out_path, questions)
    try:
        check_folders(domains_dir, instances_dir)
        rows = list(check_all(load_records(questions), domains_dir=domains_dir,
                              instances_dir=instances_dir, timeout_s=timeout_s,
                              workers=workers, progress=progress))
    except (PlanetariumError, OSError) as err:
        fail(err)
    table = label_summary(rows)
    click.echo(format_labels(table))
    shown: Counter = Counter()
    for row in rows:
        if row["label_agrees"] is False:
            group = (row["category"], row["domain"])
            shown[group] += 1
            if show_all or shown[group] <= 5:
                click.echo("DISAGREES: " + disagreement_line(row))
    hidden = sum(max(0, n - 5) for n in shown.values()) if not show_all else 0
    if hidden:
        click.echo(f"... {hidden} more disagreements (--all, or --out for the JSON report)")
    unchecked = Counter(row.get("arb_outcome") for row in rows
                        if row["label_agrees"] is None and "ill_posed" not in row)
    if unchecked:
        click.echo("unchecked: " + ", ".join(f"{n} {s}" for s, n in unchecked.most_common()))
    click.echo(ill_posed_lines(rows))
    if out_path:
        try:
            with open(out_path, "w", encoding="utf-8") as out:
                json.dump({"table": table, "questions": rows}, out, indent=1)
        except OSError as err:
            fail(err)
