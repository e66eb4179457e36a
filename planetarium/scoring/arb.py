"""``planetarium arb score``: ActionReasoningBench responses graded by the arb benchmark, one
row per question (the benchmark's result, flattened), a table per category and domain."""

from __future__ import annotations

from typing import Any

import click

from ..arb.cli import check_folders, domains_option, fail, loop_options
from ..benchmarks import ItemResult, Row
from ..cliutil import RESUME, refuse_overwriting_inputs
from ..errors import PlanetariumError
from .run import ANSWERED_ONLY, Grading, ScoreFile, answered_only_line, score_to_file

#: The keys every row of ``arb score``'s results file has (what ``--resume`` checks it keeps).
ROW_KEYS = ("id", "status", "score", "category", "domain", "arb_outcome")


def result_row(item: Row, result: ItemResult) -> dict[str, Any]:
    """A row of ``arb score``'s results file: the shared result, its groups and details
    side by side (the viewer's copy of them left out)."""
    details = {k: v for k, v in result.details.items() if k != "view"}
    return {"id": result.id, **result.groups, "status": result.status.value,
            "correct": result.correct, "score": result.score, "reason": result.reason,
            **details}


@click.command("score")
@click.argument("questions", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--responses", "responses_path", required=True, type=click.Path(exists=True,
              dir_okay=False), help='JSONL: {"id", "response"} per line (raw model text; the '
              "answer follows [ANSWER]).")
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@ANSWERED_ONLY
@RESUME
@loop_options
@domains_option
def score_command(questions: tuple[str, ...], responses_path: str, out_path: str,
                  answered_only: bool, resume: bool, timeout_s: float, workers: int | None,
                  progress: bool, domains_dir: str | None, instances_dir: str | None) -> None:
    """Score RESPONSES to the QUESTIONS (ARB question files or folders, either layout).

    Every question gets a row in OUT; one without a response is 'unparsed' (score 0;
    --answered-only: it is left out).  Prints the accuracy per category and domain, ARB's own
    true/false accuracy (its keyword rule, both/neither dropped) beside it, and how many stored
    labels of the answered questions disagree with the recomputed answers.  --resume goes on
    after the rows a killed run wrote; a second command writing the same --out is refused.
    """
    from ..arb.records import load_records
    from ..arb.report import format_table, summarize
    from ..arb.score import read_responses, unanswered_row
    from ..benchmarks.arb import BENCHMARK, ArbConfig, result_from_row

    refuse_overwriting_inputs(out_path, [*questions, responses_path])
    try:
        check_folders(domains_dir, instances_dir)
        records = load_records(questions)
        responses = read_responses(responses_path)
        known = {r.id for r in records}
        stray = [i for i in responses if i not in known]
        selected = len(records)
        if answered_only:
            records = [r for r in records if r.id in responses]
        by_id = {record.id: record for record in records}
        items = [record.to_row() for record in records]
        form = ScoreFile("arb score", result_row,
                         lambda item: result_row(item, result_from_row(
                             item["id"], unanswered_row(by_id[item["id"]]))),
                         item_key=lambda item: item["id"], row_key=lambda row: row.get("id"),
                         row_keys=ROW_KEYS)
        config = ArbConfig(name=BENCHMARK.name, dataset=questions[0], split=(None,),
                           domains=domains_dir, instances=instances_dir, timeout_s=timeout_s)
        rows = score_to_file(Grading(BENCHMARK, config, workers, progress), items, responses,
                             form, out_path, resume=resume)
    except (PlanetariumError, OSError, ValueError) as err:
        fail(err)
    if answered_only:
        click.echo(answered_only_line(len(items), selected))
    click.echo(format_table(summarize(rows)))
    missing = sum(r.id not in responses for r in records)
    if missing:
        click.echo(f"{missing} of {len(records)} questions have no response (scored 0, "
                   "'unparsed'; --answered-only leaves them out)")
    if stray:
        click.echo(f"{len(stray)} responses name no question read (e.g. {stray[0]})")
